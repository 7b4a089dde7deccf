/**
 * The events store on chDB, ClickHouse embedded in this process, with data under `DATA_DIR/events`:
 * the `@clickhouse/client` adapter (`clickhouse-store.ts`) over `chdb/connection`, which runs each
 * call on a chDB session off the event loop (no HTTP, no server).
 * chDB binds one data directory per process, and locks it: one process at a time (a second gets
 * "Cannot lock file").
 */
import fs from 'node:fs'
import { createClient } from '@clickhouse/client'
import { drainPending } from 'chdb'
import { createChdbConnection } from 'chdb/connection'
import { clickHouseStore } from './clickhouse-store.js'
import type { EventsStore } from './events-store.js'

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>

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
  // chdb types its connection against @clickhouse/client-common, which @clickhouse/client now bundles
  // its own copy of; the shapes match.
  const chdb = createChdbConnection({ path: dataPath })
  const connection = chdb as unknown as ClientConnection
  const client = createClient({ connection })
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
  return {
    ...store,
    // chDB releases a closed connection only once operations still running on it end; another data
    // directory cannot be opened in this process before then, so closing waits for that too.
    async close() {
      await store.close()
      await drainPending()
    },
  }
}
