/**
 * A `chdb/connection` connection that is replaced by a fresh chDB session after any failed call.
 *
 * Why: on a chDB session, a query that fails after it has begun writing its result (a regex ClickHouse
 * cannot compile, a query that ran past `max_execution_time`, any error raised while reading) leaves
 * that partial output in the session, and the session's next result starts with it: the next query,
 * whoever sent it, gets unparseable JSON. A session costs well under a millisecond to open on a data
 * directory already open in the process, so the failed one is closed (chDB defers the teardown until
 * calls still running on it end) and the next call runs on a new one. Statements and inserts renew
 * too: their output is never read, but what the session keeps after a failure is not documented.
 */
import {
  type ChdbConnection,
  type ChdbExtension,
  type Connection,
  createChdbConnection,
} from 'chdb/connection'

type Readable = import('node:stream').Readable

/** The connection `@clickhouse/client` takes, plus chDB's raw insert of the current session. */
export interface RenewingChdbConnection extends Connection<Readable> {
  /** The current session's chDB extension; a failed `rawInsert` renews the session too. */
  readonly chdb: Pick<ChdbExtension, 'rawInsert'>
  /** How many times a failure replaced the session (for tests and logs). */
  readonly renewals: number
}

/**
 * Open a session on `dataPath` that renews itself after every failed call.
 * @param dataPath chDB's data directory (the one already open in this process, or the first)
 * @throws what `createChdbConnection` throws (another data directory open in this process, a lock)
 */
export function openRenewingChdbConnection(dataPath: string): RenewingChdbConnection {
  let current: ChdbConnection = createChdbConnection({ path: dataPath })
  let renewals = 0
  let closed = false
  const run = async <Result>(call: (session: ChdbConnection) => Promise<Result>): Promise<Result> => {
    const session = current
    try {
      return await call(session)
    } catch (error) {
      // Calls that were running beside the failed one finish on the old session.
      if (session === current && !closed) {
        current = createChdbConnection({ path: dataPath })
        renewals++
        void session.close().catch(() => {})
      }
      throw error
    }
  }
  return {
    query: (params) => run((session) => session.query(params)),
    insert: (params) => run((session) => session.insert(params)),
    command: (params) => run((session) => session.command(params)),
    exec: (params) => run((session) => session.exec(params)),
    ping: (params) => current.ping(params),
    chdb: { rawInsert: (params) => run((session) => session.chdb.rawInsert(params)) },
    get renewals() {
      return renewals
    },
    async close() {
      closed = true
      await current.close()
    },
  }
}
