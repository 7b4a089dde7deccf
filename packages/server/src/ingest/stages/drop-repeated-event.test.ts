import { afterAll, describe, expect, it } from 'vitest'
import { NOW, openStageDeps, stageDraft } from '../draft.fixture.js'
import { EVENT_ID_WINDOW_MS } from '../state/event-id-registry.js'
import { dropRepeatedEvent, eventIdKey } from './drop-repeated-event.js'

let now = NOW
const deps = await openStageDeps({ clock: () => now })
afterAll(() => deps.close())

const ID = '0b9a3f0e-4c1d-4e5f-9a7b-2c3d4e5f6a7b'
const run = (eventId: string | undefined, siteId = 1) =>
  dropRepeatedEvent(stageDraft({ body: eventId ? { event_id: eventId } : {}, site: { siteId } }), deps)

describe('dropRepeatedEvent', () => {
  it('passes events without an event_id, every time', async () => {
    expect(await run(undefined)).toEqual({ ok: true })
    expect(await run(undefined)).toEqual({ ok: true })
  })

  it('passes an event_id once per site, and acknowledges its repeats without storing them', async () => {
    expect(await run(ID)).toEqual({ ok: true })
    expect(await run(ID)).toEqual({ ok: false, reason: { kind: 'repeated_event' } })
    expect(await run(ID.toUpperCase())).toEqual({ ok: false, reason: { kind: 'repeated_event' } })
    expect(await run(ID, 2)).toEqual({ ok: true })
  })

  it('forgets an id after 24 hours, or when its claim is released', async () => {
    const id = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'
    expect(await run(id)).toEqual({ ok: true })
    now += EVENT_ID_WINDOW_MS - 1
    expect((await run(id)).ok).toBe(false)
    now += 1
    expect(await run(id)).toEqual({ ok: true })
    await deps.eventIds.release(eventIdKey(stageDraft({ body: { event_id: id } })))
    expect(await run(id)).toEqual({ ok: true })
  })
})
