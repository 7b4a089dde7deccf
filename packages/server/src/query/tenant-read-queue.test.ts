/**
 * The per-organization queue of read queries, over a real chDB store running queries that take a
 * known time (`sleep`): one organization's queries beyond its cap wait (and beyond the line are
 * refused) while another organization's run at once; a query that waits too long is refused; queries
 * outside any organization and writes are not queued.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openChdbStore } from '../storage/events/chdb-store.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { createTenantReadQueue } from './tenant-read-queue.js'

let root: string
let store: EventsStore
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-read-queue-'))
  copyEventsTemplate(path.join(root, 'events'))
  store = await openChdbStore(path.join(root, 'events'))
}, 60_000)
afterAll(async () => {
  await store?.close()
  fs.rmSync(root, { recursive: true, force: true })
})

const sleepQuery = (seconds: number, tag: string) => `SELECT sleep(${seconds}) AS slept, '${tag}' AS tag`

it("runs one organization's queries beyond its cap in turn, another's at once, and refuses beyond the line", async () => {
  const queue = createTenantReadQueue({ concurrency: 1, maxQueued: 1, maxWaitMs: 10_000 })
  const events = queue.wrap(store)
  const finished: string[] = []
  const run = (organization: string, tag: string, seconds: number) =>
    queue.runAs(organization, async () => {
      const rows = await events.query<{ tag: string }>(sleepQuery(seconds, tag))
      finished.push(rows[0]?.tag ?? '?')
    })

  const a1 = run('org-a', 'a1', 0.4)
  const a2 = run('org-a', 'a2', 0.1)
  expect(queue.load('org-a')).toEqual({ running: 1, waiting: 1 })
  const a3 = run('org-a', 'a3', 0.1)
  await expect(a3).rejects.toMatchObject({
    status: 429,
    message: 'Too many report queries of this organization are waiting: retry later',
    headers: { 'retry-after': '10' },
  })
  // Another organization does not wait behind org-a's line.
  const b1 = run('org-b', 'b1', 0.1)
  expect(queue.load('org-b')).toEqual({ running: 1, waiting: 0 })
  await Promise.all([a1, a2, b1])
  // b1 (0.1 s) ran beside a1 (0.4 s); a2 ran only after a1.
  expect(finished).toEqual(['b1', 'a1', 'a2'])
  expect(queue.load('org-a')).toEqual({ running: 0, waiting: 0 })
})

it('refuses a query whose turn does not come in time, and passes the rest through unqueued', async () => {
  const queue = createTenantReadQueue({ concurrency: 1, maxQueued: 10, maxWaitMs: 200 })
  const events = queue.wrap(store)
  const long = queue.runAs('org-a', () => events.query(sleepQuery(1, 'long')))
  const late = queue.runAs('org-a', () => events.query(sleepQuery(0, 'late')))
  await expect(late).rejects.toMatchObject({
    status: 429,
    message: 'The report queries of this organization did not get their turn in time: retry later',
    headers: { 'retry-after': '1' },
  })
  expect(queue.load('org-a')).toEqual({ running: 1, waiting: 0 })
  // Outside any organization (workers, health) and writes: straight to the store.
  expect(await events.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
  await queue.runAs('org-a', () => events.insert([eventRow({ site_id: 4242 })]))
  expect(queue.load('org-a')).toEqual({ running: 1, waiting: 0 })
  await long
  expect(
    await queue.runAs('org-a', () =>
      events.query<{ n: number }>('SELECT count() AS n FROM events WHERE site_id = 4242'),
    ),
  ).toEqual([{ n: 1 }])
})
