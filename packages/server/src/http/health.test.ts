/**
 * What makes health `degraded`, on a real journal and real chDB: the age of the oldest pending event
 * past the limit (inserts merely not yet made), and an events store that refuses writes.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openJournal } from '../ingest/journal.js'
import { createJournaledWriteBuffer } from '../ingest/journaled-write-buffer.js'
import { openChdbStore } from '../storage/events/chdb-store.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { ingestStallReasons } from './health.js'

let events: EventsStore
let root: string
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-health-'))
  events = await openChdbStore(path.join(root, 'events'))
})
afterAll(async () => {
  await events.close()
  fs.rmSync(root, { recursive: true, force: true })
})

const REFUSES =
  'events store: refuses writes (the last insert failed and none has succeeded since); accepted events wait in the journal'

it('names a backlog older than the limit, then an events store that refuses writes; nothing once stored', async () => {
  let refuse = false
  const buffer = createJournaledWriteBuffer(
    await openJournal(path.join(root, 'journal')),
    async (lines) => {
      if (refuse) throw new Error('Code: 243. Could not perform insert: not enough space')
      await events.insertEncoded(lines)
    },
    { maxRows: 1000, maxDelayMs: 60_000 },
  )
  expect(ingestStallReasons(buffer, 1000)).toEqual([])
  await buffer.add(eventRow({ site_id: 1 }))
  expect(ingestStallReasons(buffer, 1000)).toEqual([])
  await new Promise((resolve) => setTimeout(resolve, 1100))
  expect(ingestStallReasons(buffer, 1000)).toEqual(['ingest: oldest pending event is 1 s old (limit 1 s)'])

  refuse = true
  await expect(buffer.flush()).rejects.toThrow('Code: 243')
  expect(ingestStallReasons(buffer, 60_000)).toEqual([REFUSES])
  expect(ingestStallReasons(buffer, 1000)).toEqual([
    'ingest: oldest pending event is 1 s old (limit 1 s)',
    REFUSES,
  ])

  refuse = false
  await buffer.flush()
  expect(ingestStallReasons(buffer, 1000)).toEqual([])
  await buffer.close()
})
