/**
 * The events store on chDB, ClickHouse embedded in this process, with data under `DATA_DIR/events`:
 * the `@clickhouse/client` adapter (`clickhouse-store.ts`) over `chdb/connection`, which runs each
 * call on a chDB session off the event loop (no HTTP, no server).
 * chDB binds one data directory per process, and locks it: one process at a time (a second gets
 * "Cannot lock file").
 *
 * Read queries go to a small pool of sessions of their own on the same directory
 * ({@link querySessionCount}), one query per session at a time, with their parameters written into the
 * SQL as typed literals (`inline-query-params.ts`): chdb-node runs queries with bound parameters one at
 * a time across the whole process, and those without side by side. Migrations, inserts and statements
 * go through another session, so reads never wait behind an insert. Every session is replaced after a
 * failed call (`renewing-chdb-connection.ts`), so that one request's failure never reaches the next.
 */
import fs from 'node:fs'
import os from 'node:os'
import { createClient } from '@clickhouse/client'
import { drainPending } from 'chdb'
import { clickHouseStore, type ReadSettings, readRows } from './clickhouse-store.js'
import type { EventsStore } from './events-store.js'
import { inlineQueryParams } from './inline-query-params.js'
import { openRenewingChdbConnection } from './renewing-chdb-connection.js'

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>
type ChdbClient = ReturnType<typeof createClient>

/**
 * Sessions for read queries: one per CPU, at least 2 and at most 4. Two queries at once on 2 CPUs
 * take less than two in a row (bench/README.md "query: chDB parallelism"); more sessions than CPUs
 * only split the same CPUs further.
 */
const querySessionCount = (cpus: number): number => Math.min(4, Math.max(2, cpus))

/** A client of its own chDB session on `dataPath`, renewed after any failed call. */
function openSession(dataPath: string) {
  // chdb types its connection against @clickhouse/client-common, which @clickhouse/client now bundles
  // its own copy of; the shapes match.
  const chdb = openRenewingChdbConnection(dataPath)
  return { chdb, client: createClient({ connection: chdb as unknown as ClientConnection }) }
}

/**
 * The nice value of the threads that run read queries (`os_thread_priority`), above the process's 0:
 * chDB runs in this process, so a report's threads compete for the CPUs with the event loop that
 * answers tracking. Niced, they take the CPUs the event loop leaves, and a tenant's reports cannot
 * starve tracking (bench/README.md "hostile: cookie-read flood"). Ignored without CAP_SYS_NICE.
 */
export const READ_THREAD_NICENESS = 10

/**
 * Read queries spread over `clients`, one query per client at a time, the others waiting here in
 * arrival order; parameters inlined. Waiting in JavaScript matters: chDB runs each call on libuv's
 * thread pool (4 threads unless `UV_THREADPOOL_SIZE` says otherwise), where a call that a session cannot
 * take yet would hold a thread, and the ingest journal's file writes need one too.
 *
 * Each query gets the CPUs that the queries already running leave it (`max_threads`, at least 1): alone
 * it uses them all, beside others it does not crowd out the event loop: with every query on all CPUs,
 * `bench/query/concurrent.ts` measured tracking's tail latency far higher under dashboard load
 * (bench/README.md "query: chDB parallelism, the overview as one request, readers beside ingest").
 */
function pooledReads(
  clients: readonly ChdbClient[],
  cpus: number,
  timeoutSeconds: number | undefined,
): EventsStore['query'] {
  const idle = [...clients]
  const waiting: ((client: ChdbClient) => void)[] = []
  let running = 0
  const acquire = (): Promise<ChdbClient> => {
    const client = idle.shift()
    return client ? Promise.resolve(client) : new Promise((resolve) => waiting.push(resolve))
  }
  const release = (client: ChdbClient) => {
    const next = waiting.shift()
    if (next) next(client)
    else idle.push(client)
  }
  return async <Row>(sql: string, params: Record<string, unknown> = {}) => {
    const text = inlineQueryParams(sql, params)
    const client = await acquire()
    const threads = Math.max(1, Math.floor(cpus / (running + 1)))
    running++
    try {
      const settings: ReadSettings = {
        maxThreads: threads,
        timeoutSeconds,
        threadNiceness: READ_THREAD_NICENESS,
      }
      return await readRows<Row>(client, text, {}, settings)
    } finally {
      running--
      release(client)
    }
  }
}

/**
 * Open (creating if needed) the chDB data directory and migrate the schema.
 * @param dataPath directory for chDB's files, e.g. `${DATA_DIR}/events`
 * @param options.rawInsert false: rows go in as the body of an `INSERT` statement, the way they go to a
 *   ClickHouse server over HTTP, instead of chDB's raw insert (a Buffer, no copy); tests run the
 *   statement path on chDB with it. Default true.
 * @param options.queryTimeoutSeconds how long a read query may run (`DEFAULT_QUERY_TIMEOUT_SECONDS`)
 * @throws when the directory is locked by another process, another data directory is open in this
 *   one, or a migration fails (then the directory is released)
 */
export async function openChdbStore(
  dataPath: string,
  options: { rawInsert?: boolean; queryTimeoutSeconds?: number } = {},
): Promise<EventsStore> {
  fs.mkdirSync(dataPath, { recursive: true })
  const { chdb, client } = openSession(dataPath)
  const store =
    options.rawInsert === false
      ? await clickHouseStore(client, 'chdb')
      : await clickHouseStore(client, 'chdb', async (body, columns, format) => {
          await chdb.chdb.rawInsert({
            table: 'events',
            values: body,
            columns,
            format: format as 'JSONCompactEachRow',
          })
        })
  // Opened after the migrations (which `clickHouseStore` ran on the writing session).
  const cpus = os.availableParallelism()
  const readers = Array.from({ length: querySessionCount(cpus) }, () => openSession(dataPath).client)
  return {
    ...store,
    query: pooledReads(readers, cpus, options.queryTimeoutSeconds),
    // chDB releases a closed connection only once operations still running on it end; another data
    // directory cannot be opened in this process before then, so closing waits for that too.
    async close() {
      await Promise.all(readers.map((reader) => reader.close()))
      await store.close()
      await drainPending()
    },
  }
}
