/**
 * The ClickHouse-server adapter's code (queries, parameters, inserts through `@clickhouse/client`)
 * runs the events-store contract over `chdb/connection`, a `@clickhouse/client` connection backed by
 * chDB: the same client calls and ClickHouse engine, without the HTTP hop. With CLICKHOUSE_URL set,
 * `clickhouse-store.test.ts` runs the contract against a real server too.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createClient } from '@clickhouse/client'
import { createChdbConnection } from 'chdb/connection'
import { clickHouseStore } from './clickhouse-store.js'

type ClientConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>

import { eventsStoreContract } from './events-store.contract.js'

eventsStoreContract('@clickhouse/client over chdb/connection', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-chconn-'))
  // chdb types its connection against its own copy of @clickhouse/client-common; the shapes match.
  const connection = createChdbConnection({ path: dir }) as unknown as ClientConnection
  return clickHouseStore(createClient({ connection }))
})
