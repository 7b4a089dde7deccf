import { afterAll, describe, expect, it } from 'vitest'
import { NOW, openStageDeps, stageDraft } from '../draft.fixture.js'
import { dropOrphanEngagement } from './drop-orphan-engagement.js'
import { putSession } from './put-session.js'

const MINUTE = 60_000
const deps = await openStageDeps()
afterAll(() => deps.close())

/** Run `putSession` then the stage for an event of `user`, `minutes` after NOW. */
async function eventAt(user: string, minutes: number, body: Record<string, unknown>) {
  const draft = stageDraft({ body: { user_id: user, ...body }, now: NOW + minutes * MINUTE })
  draft.row.user_id = user
  expect(await putSession(draft, deps)).toEqual({ ok: true })
  return dropOrphanEngagement(draft)
}

describe('dropOrphanEngagement', () => {
  it('records an engagement event of a live session', async () => {
    expect(await eventAt('ada', 0, { type: 'pageview' })).toEqual({ ok: true })
    expect(await eventAt('ada', 5, { type: 'engagement', scroll_depth: 40, engagement_time: 3000 })).toEqual({
      ok: true,
    })
  })

  it('drops one that would open a session, and keeps other types that do', async () => {
    expect(await eventAt('grace', 0, { type: 'engagement', engagement_time: 10 })).toEqual({
      ok: false,
      reason: { kind: 'no_session' },
    })
    expect(await eventAt('grace', 45, { type: 'engagement', engagement_time: 10 })).toEqual({
      ok: false,
      reason: { kind: 'no_session' },
    })
    expect(await eventAt('linus', 0, { type: 'custom_event', event_name: 'signup' })).toEqual({ ok: true })
  })

  it('drops a heatmap click that would open a session, and keeps one of a live session', async () => {
    const click = { type: 'heatmap_click', selector: '#buy', click_x: 0.5, click_y: 0.5 }
    expect(await eventAt('hopper', 0, click)).toEqual({ ok: false, reason: { kind: 'no_session' } })
    expect(await eventAt('turing', 0, { type: 'pageview' })).toEqual({ ok: true })
    expect(await eventAt('turing', 2, click)).toEqual({ ok: true })
  })
})
