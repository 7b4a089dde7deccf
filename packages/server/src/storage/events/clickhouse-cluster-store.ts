/**
 * The events store on a sharded ClickHouse cluster (`CLICKHOUSE_CLUSTER`, `CLICKHOUSE_SHARD_URLS`).
 *
 * Each shard holds the real tables in a database of its own, `<database>_shard` (the migrations run
 * there, on every shard, with their backfills, exactly as on one server), and the query database,
 * `<database>` (the path of `CLICKHOUSE_URL`), holds on every shard one `Distributed` table per real
 * table, of the same name and columns. Every query of the service, written for one server, reads
 * the whole cluster through them unchanged; new migrations' tables get theirs without code of their
 * own, since they are made from what the shard databases hold after migrating.
 *
 * Where rows go, and why the figures stay exact: events and replay batches are inserted through the
 * `Distributed` tables with `distributed_foreground_insert`, so the insert answers only once every row
 * is committed on its shard (the journal's promise holds), sharded by `cityHash64(session_id)`: a
 * session never spans shards, and the rollup views run on each shard over whole sessions. Reads merge
 * the shards' partial aggregate states (ClickHouse's distributed aggregation), so distinct counts are
 * merged sets, never sums; a subquery over the same tables inside a distributed query reads the whole
 * cluster too (`distributed_product_mode = 'allow'`: each shard asks every shard, so a visitor's
 * sessions on several shards are all found). Statements (deletes, the fold and seal's `INSERT ...
 * SELECT`, retention) run on every shard's own database: each refolds, reseals or erases its own
 * sessions, which is the whole answer since none is split.
 */
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { openClickHouseStore, quoteIdentifier } from './clickhouse-store.js'
import { toClickHouseTime } from './clickhouse-time.js'
import { decodeEventLine, encodeEventRow } from './encode-event-row.js'
import type { EventsStore } from './events-store.js'

/** A sharded cluster's settings, as `config.ts` parses them. */
export interface ClickHouseClusterSettings {
  /** CLICKHOUSE_CLUSTER: the cluster's name in the servers' `remote_servers`. */
  cluster: string
  /** CLICKHOUSE_SHARD_URLS: one HTTP address per shard (no path), in any order. */
  shardUrls: readonly string[]
}

/**
 * The settings the query database's requests carry: inserts into `Distributed` tables are sent to
 * their shards before the insert answers, and a subquery over a distributed table inside a distributed
 * query reads the whole cluster (ClickHouse's default refuses it; `global`, which would run it once on
 * the initiator, fails the reports' nested `IN`s with "Invalid local IN function name globalIn" on
 * ClickHouse 26.7).
 */
export const CLUSTER_QUERY_SETTINGS = {
  distributed_foreground_insert: 1,
  distributed_product_mode: 'allow',
  // A shard that is down fails the read (the HTTP layer answers 503) rather than answering the other
  // shards' part of the figures.
  skip_unavailable_shards: 0,
} as const

/** The rows' shard: a session's rows, and its rollups', on one shard (see the file's comment). */
function shardingKey(columns: ReadonlySet<string>): string {
  if (columns.has('session_id')) return 'cityHash64(session_id)'
  if (columns.has('session_key')) return 'session_key'
  return 'rand()'
}

/** Raised when the cluster's settings do not match the servers; names the setting at fault. */
export class ClusterSettingsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ClusterSettingsError'
  }
}

/**
 * Open the events store on a cluster: check every setting against the servers before changing
 * anything, migrate every shard's database, then make the query database's `Distributed` tables on
 * every shard (dropped and remade when a migration changed a table's columns).
 * @param url CLICKHOUSE_URL: a server of the cluster (or a proxy in front of its shards), with the
 *   query database as its path
 * @throws {@link ClusterSettingsError} naming CLICKHOUSE_CLUSTER or CLICKHOUSE_SHARD_URLS (an unknown
 *   cluster, a shard that does not answer, addresses that are not the cluster's shards), before any
 *   table is made; a migration's failure
 */
export async function openClickHouseClusterStore(
  url: string,
  settings: ClickHouseClusterSettings,
  options: { queryTimeoutSeconds?: number } = {},
): Promise<EventsStore> {
  const parsed = new URL(url)
  const database = parsed.pathname.replace(/^\//, '') || 'default'
  const shardDatabase = `${database}_shard`
  quoteIdentifier(database)
  const shardUrls = settings.shardUrls.map((shard) => shard.replace(/\/+$/, ''))
  await checkCluster(url, settings.cluster, shardUrls)

  const shards: EventsStore[] = []
  const closeAll = () => Promise.all(shards.map((shard) => shard.close()))
  try {
    // The shards migrate side by side; each records its migrations in its own database.
    const opened = await Promise.allSettled(
      shardUrls.map((shard) =>
        openClickHouseStore(`${shard}/${shardDatabase}`, {
          queryTimeoutSeconds: options.queryTimeoutSeconds,
        }),
      ),
    )
    for (const result of opened) if (result.status === 'fulfilled') shards.push(result.value)
    const failed = opened.find((result) => result.status === 'rejected')
    if (failed) throw failed.reason
    for (const shard of shardUrls)
      await makeDistributedTables(shard, settings.cluster, database, shardDatabase)
  } catch (error) {
    await closeAll()
    throw error
  }
  const main = await openClickHouseStore(url, {
    queryTimeoutSeconds: options.queryTimeoutSeconds,
    migrate: false,
    settings: CLUSTER_QUERY_SETTINGS,
  })
  // An insert that failed may have reached some shards (each shard's part commits on its own): the
  // journal retries the whole batch, so a retry sends only the rows no shard holds.
  const uncertain = new Set<string>()
  const insertEncoded = async (lines: readonly string[]) => {
    const decoded = lines.map(decodeEventLine)
    let send = lines
    if (uncertain.size > 0) {
      const retried = decoded.flatMap((event) =>
        event && uncertain.has(event.row.event_id) ? [event.row] : [],
      )
      if (retried.length > 0) {
        const stored = await storedIds(main, retried)
        send = lines.filter((_, i) => !stored.has(decoded[i]?.row.event_id ?? ''))
      }
    }
    try {
      await main.insertEncoded(send)
    } catch (error) {
      for (const event of decoded) if (event) uncertain.add(event.row.event_id)
      throw error
    }
    for (const event of decoded) if (event) uncertain.delete(event.row.event_id)
  }
  return {
    ...main,
    insertEncoded,
    insert: (rows) => insertEncoded(rows.map(encodeEventRow)),
    async command(sql, params) {
      await Promise.all(shards.map((shard) => shard.command(sql, params)))
    },
    async close() {
      await main.close()
      await closeAll()
    },
  }
}

/** Ids of a retried insert searched per query (their literals go in the query's body). */
const IDS_PER_LOOKUP = 4000

/** The `event_id`s of `rows` that the cluster holds (each lookup bounded by the rows' sites and times). */
async function storedIds(
  store: EventsStore,
  rows: readonly { event_id: string; site_id: number; timestamp: string }[],
): Promise<Set<string>> {
  const stored = new Set<string>()
  for (let i = 0; i < rows.length; i += IDS_PER_LOOKUP) {
    const part = rows.slice(i, i + IDS_PER_LOOKUP)
    const times = part.map((row) => row.timestamp).sort()
    const found = await store.query<{ id: string }>(
      `SELECT toString(event_id) AS id FROM events
       WHERE site_id IN {sites:Array(UInt32)} AND event_id IN {ids:Array(UUID)}
         AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp <= {to:DateTime64(3, 'UTC')}`,
      {
        sites: [...new Set(part.map((row) => row.site_id))],
        ids: part.map((row) => row.event_id),
        from: toClickHouseTime(times[0] ?? ''),
        to: toClickHouseTime(times.at(-1) ?? ''),
      },
    )
    for (const row of found) stored.add(row.id)
  }
  return stored
}

/** One request to a server outside any store (checks and DDL), its rows when it has any. */
async function withClient<T>(url: string, run: (client: ClickHouseClient) => Promise<T>): Promise<T> {
  const client = createClient({
    url,
    log: { level: ClickHouseLogLevel.OFF },
    request_timeout: 10_000,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  })
  try {
    return await run(client)
  } finally {
    await client.close()
  }
}

async function rows<Row>(client: ClickHouseClient, query: string, params = {}): Promise<Row[]> {
  const result = await client.query({ query, query_params: params, format: 'JSONEachRow' })
  return (await result.json()) as Row[]
}

/**
 * Every shard answers, every server (CLICKHOUSE_URL's and the shards') knows the cluster, and the
 * addresses are its shards, one each.
 */
async function checkCluster(url: string, cluster: string, shardUrls: readonly string[]): Promise<void> {
  const origin = new URL(url)
  origin.pathname = '/'
  const servers = [
    { url: origin.toString().replace(/\/$/, ''), setting: 'CLICKHOUSE_URL' },
    ...shardUrls.map((shard) => ({ url: shard, setting: 'CLICKHOUSE_SHARD_URLS' })),
  ]
  const tcpPorts = new Map<string, number>()
  let clusterPorts: number[] | undefined
  for (const server of servers) {
    let found: { shard_num: number; port: number }[]
    let names: { cluster: string }[]
    try {
      ;[found, names] = await withClient(server.url, async (client) => {
        if (server.setting === 'CLICKHOUSE_SHARD_URLS') {
          const [own] = await rows<{ port: number }>(client, "SELECT getServerPort('tcp_port') AS port")
          tcpPorts.set(server.url, Number(own?.port))
        }
        return Promise.all([
          rows<{ shard_num: number; port: number }>(
            client,
            'SELECT shard_num, port FROM system.clusters WHERE cluster = {cluster:String} ORDER BY shard_num',
            { cluster },
          ),
          rows<{ cluster: string }>(client, 'SELECT DISTINCT cluster FROM system.clusters ORDER BY cluster'),
        ])
      })
    } catch (error) {
      throw new ClusterSettingsError(
        `${server.setting}: the ClickHouse server at ${redact(server.url)} does not answer (${(error as Error).message})`,
      )
    }
    if (found.length === 0) {
      const known = names.map((name) => name.cluster).join(', ') || 'none'
      throw new ClusterSettingsError(
        `CLICKHOUSE_CLUSTER: the ClickHouse server at ${redact(server.url)} knows no cluster "${cluster}" ` +
          `in its remote_servers (it knows: ${known})`,
      )
    }
    clusterPorts ??= found.map((shard) => Number(shard.port))
  }
  const ports = clusterPorts ?? []
  if (ports.length !== shardUrls.length)
    throw new ClusterSettingsError(
      `CLICKHOUSE_SHARD_URLS: ${shardUrls.length} address(es) given, but cluster "${cluster}" has ${ports.length} shard(s): give one address per shard`,
    )
  const unmatched = shardUrls.filter((shard) => !ports.includes(tcpPorts.get(shard) ?? -1))
  const distinct = new Set(shardUrls.map((shard) => tcpPorts.get(shard)))
  if (unmatched.length > 0 || distinct.size !== shardUrls.length)
    throw new ClusterSettingsError(
      `CLICKHOUSE_SHARD_URLS: ${unmatched.map(redact).join(', ') || 'the addresses'} ` +
        `${unmatched.length > 0 ? 'are not shards' : 'name one shard twice'} of cluster "${cluster}" ` +
        `(its shards' native ports: ${ports.join(', ')})`,
    )
}

/** An address without its password, for messages. */
function redact(address: string): string {
  const parsed = new URL(address)
  if (parsed.password) parsed.password = '***'
  return parsed.toString().replace(/\/$/, '')
}

/** The table where the migrations record what they applied (`migrations/index.ts`). */
const MIGRATIONS = 'pathlight_migrations'

interface Column {
  table: string
  name: string
  type: string
}

/**
 * On one shard: a `Distributed` table in `database` for every table of `shardDatabase` (not views),
 * with its columns; one whose columns differ is remade, and one whose table is gone is dropped.
 */
async function makeDistributedTables(
  shard: string,
  cluster: string,
  database: string,
  shardDatabase: string,
): Promise<void> {
  await withClient(shard, async (client) => {
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}` })
    const columnsOf = async (db: string) => {
      const found = await rows<Column>(
        client,
        `SELECT c.table AS table, c.name AS name, c.type AS type FROM system.columns AS c
         INNER JOIN system.tables AS t ON t.database = c.database AND t.name = c.table
         WHERE c.database = {db:String} AND t.engine NOT IN ('View', 'MaterializedView')
           AND NOT startsWith(c.table, '.')
         ORDER BY c.table, c.position`,
        { db },
      )
      const byTable = new Map<string, string>()
      const names = new Map<string, Set<string>>()
      for (const column of found) {
        byTable.set(column.table, `${byTable.get(column.table) ?? ''}${column.name} ${column.type},`)
        names.set(column.table, (names.get(column.table) ?? new Set()).add(column.name))
      }
      return { byTable, names }
    }
    const local = await columnsOf(shardDatabase)
    const distributed = await columnsOf(database)
    const db = quoteIdentifier(database)
    // The migrations' record is each shard's own (the same list on every shard): a view of it, so
    // that it reads as on one server, not once per shard.
    await client.command({
      query: `CREATE VIEW IF NOT EXISTS ${db}.${MIGRATIONS} AS SELECT * FROM ${quoteIdentifier(shardDatabase)}.${MIGRATIONS}`,
    })
    for (const [table, columns] of local.byTable) {
      if (table === MIGRATIONS || distributed.byTable.get(table) === columns) continue
      const name = quoteIdentifier(table)
      if (distributed.byTable.has(table)) await client.command({ query: `DROP TABLE ${db}.${name} SYNC` })
      const key = shardingKey(local.names.get(table) ?? new Set())
      await client.command({
        query: `CREATE TABLE ${db}.${name} AS ${quoteIdentifier(shardDatabase)}.${name}
                ENGINE = Distributed(${quoteIdentifier(cluster)}, ${quoteIdentifier(shardDatabase)}, ${name}, ${key})`,
      })
    }
    for (const table of distributed.byTable.keys()) {
      if (!local.byTable.has(table))
        await client.command({ query: `DROP TABLE ${db}.${quoteIdentifier(table)} SYNC` })
    }
  })
}
