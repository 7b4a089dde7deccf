/**
 * A log sent in batches (`pathlight ingest-log --url`) sums up as the log sent whole: the batches'
 * summaries added with `addLogSummary` equal the whole log's summary, line numbers included. Also: a
 * store that refuses the INSERT (its table renamed away) fails the ingest, though the INSERT runs while later lines are read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { addLogSummary, emptyLogSummary, ingestLog } from './ingest-log.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const FIXTURE = readFileSync(path.join(here, 'access-log.fixture.txt'), 'utf8').split('\n')
const REAL = readFileSync(
  path.resolve(here, '../../test-data/access-logs/secrepo-access-2022-12-22.txt'),
  'utf8',
)
  .split('\n')
  .slice(0, 400)

describe('log summaries in batches', () => {
  let dir: string
  let events: EventsStore

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'pathlight-log-summary-'))
    copyEventsTemplate(path.join(dir, 'events'))
    events = await openTestEventsStore(path.join(dir, 'events'))
  }, 60_000)
  afterAll(async () => {
    await events?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('adds up the batches of a log to the summary of the whole log', async () => {
    const lines = [...REAL, ...FIXTURE, ...REAL]
    const whole = await ingestLog(events, 801, lines)
    const total = emptyLogSummary()
    for (let start = 0; start < lines.length; start += 97)
      addLogSummary(total, await ingestLog(events, 802, lines.slice(start, start + 97)))
    expect(total.rejected.length).toBeGreaterThan(0)
    expect({ ...total, agents: Object.entries(total.agents).sort() }).toEqual({
      ...whole,
      agents: Object.entries(whole.agents).sort(),
    })
  })

  it('fails the ingest when the store refuses an INSERT', async () => {
    // A real refusal: the table is away while the lines are read.
    await events.command('RENAME TABLE crawler_requests TO crawler_requests_away')
    try {
      await expect(ingestLog(events, 803, REAL)).rejects.toThrow(/crawler_requests/)
    } finally {
      await events.command('RENAME TABLE crawler_requests_away TO crawler_requests')
    }
  })
})
