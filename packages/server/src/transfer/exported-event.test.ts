import { channelNames } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { channels } from '../ingest/enrich/channel.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import { exportedEventSchema, fromExportedEvent, toExportedEvent } from './exported-event.js'
import { firstIssue } from './first-issue.js'

/** An event as `GET .../export` writes it: through JSON, as the importer reads it. */
const exported = (overrides: Parameters<typeof eventRow>[0] = {}) =>
  JSON.parse(JSON.stringify(toExportedEvent(eventRow(overrides)))) as Record<string, unknown>

describe('exported events', () => {
  it('import as the row they were exported from', () => {
    const row = eventRow({ channel: 'Organic Search' })
    const parsed = exportedEventSchema.parse(JSON.parse(JSON.stringify(toExportedEvent(row))))
    const { site_id: _site, ...stored } = row
    expect(fromExportedEvent(parsed)).toMatchObject(stored)
  })

  it("take a channel only as Pathlight assigns it ('' or a known channel)", () => {
    expect(exportedEventSchema.safeParse(exported({ channel: '' })).success).toBe(true)
    const parsed = exportedEventSchema.safeParse({ ...exported(), channel: 'Newsletter' })
    expect(parsed.success).toBe(false)
    expect(firstIssue(parsed.error?.issues ?? [])).toMatch(/^channel: must be '' or one of Direct, /)
  })

  it('take every channel ingest assigns, and no other (the protocol lists them for the document)', () => {
    expect([...channelNames]).toEqual([...channels])
  })
})
