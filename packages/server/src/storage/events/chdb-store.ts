/**
 * The events store on chDB, ClickHouse embedded in this process, with data under `DATA_DIR/events`:
 * the `@clickhouse/client` adapter (`clickhouse-store.ts`) over `chdb/connection`, which runs each
 * call on a chDB session off the event loop (no HTTP, no server).
 * chDB binds one data directory per process, and locks it: one process at a time (a second gets
 * "Cannot lock file").
 *
 * Read queries go to a small pool of sessions on the same directory ({@link querySessionCount}), each
 * to the one with the fewest queries running, with their parameters written into the SQL as typed
 * literals (`inline-query-params.ts`): chdb-node runs queries with bound parameters one at a time
 * across the whole process, and those without side by side. Inserts and statements go through the
 * first session.
 */
import fs from 'node:fs'
import os from 'node:os'
import { createClient } from '@clickhouse/client'
import { drainPending } from 'chdb'
import { createChdbConnection } from 'chdb/connection'
import { clickHouseStore, readRows } from './clickhouse-store.js'
import type { EventsStore } from './events-store.js'
import { inlineQueryParams } from './inline-query-params.js'

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>
type ChdbClient = ReturnType<typeof createClient>

/**
 * Sessions for read queries: one per CPU, at least 2 and at most 4. Two queries at once on 2 CPUs
 * took 1.20-1.39x one alone (`bench/query/parallel.ts`), against 2x in a row; more sessions than CPUs
 * only split the same CPUs further.
 */
export const querySessionCount = (): number => Math.min(4, Math.max(2, os.availableParallelism()))

/** A client of its own chDB session on `dataPath`. */
function openSession(dataPath: string) {
  // chdb types its connection against @clickhouse/client-common, which @clickhouse/client now bundles
  // its own copy of; the shapes match.
  const chdb = createChdbConnection({ path: dataPath })
  return { chdb, client: createClient({ connection: chdb as unknown as ClientConnection }) }
}

/**
 * Read queries spread over `clients`: each to the client with the fewest queries running (the first
 * of those on a tie), parameters inlined.
 */
function pooledReads(clients: readonly ChdbClient[]): EventsStore['query'] {
  const running = clients.map(() => 0)
  return async <Row>(sql: string, params: Record<string, unknown> = {}) => {
    let pick = 0
    for (let i = 1; i < clients.length; i++) if ((running[i] ?? 0) < (running[pick] ?? 0)) pick = i
    const client = clients[pick] as ChdbClient
    running[pick] = (running[pick] ?? 0) + 1
    try {
      return await readRows<Row>(client, inlineQueryParams(sql, params))
    } finally {
      running[pick] = (running[pick] ?? 0) - 1
    }
  }
}

/**
 * Open (creating if needed) the chDB data directory and migrate the schema.
 * @param dataPath directory for chDB's files, e.g. `${DATA_DIR}/events`
 * @param options.rawInsert false: rows go in as the body of an `INSERT` statement, the way they go to a
 *   ClickHouse server over HTTP, instead of chDB's raw insert (a Buffer, no copy); tests run the
 *   statement path on chDB with it. Default true.
 * @throws when the directory is locked by another process, another data directory is open in this
 *   one, or a migration fails (then the directory is released)
 */
export async function openChdbStore(
  dataPath: string,
  options: { rawInsert?: boolean } = {},
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
  // Opened after the migrations (which `clickHouseStore` ran on the first session).
  const readers = Array.from({ length: querySessionCount() - 1 }, () => openSession(dataPath).client)
  return {
    ...store,
    query: pooledReads([client, ...readers]),
    // chDB releases a closed connection only once operations still running on it end; another data
    // directory cannot be opened in this process before then, so closing waits for that too.
    async close() {
      await Promise.all(readers.map((reader) => reader.close()))
      await store.close()
      await drainPending()
    },
  }
}
