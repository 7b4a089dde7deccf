import { afterAll, describe, expect, it } from 'vitest'
import { NOW, openStageDeps, stageDraft } from '../draft.fixture.js'
import { putSession } from './put-session.js'

const MINUTE = 60_000
const deps = await openStageDeps()
afterAll(() => deps.close())

describe('putSession', () => {
  /** The session of an event of `user` on site `siteId`, `minutes` after NOW. */
  const eventAt = async (user: string, minutes: number, siteId = 1) => {
    const draft = stageDraft({ body: { user_id: user }, site: { siteId }, now: NOW + minutes * MINUTE })
    draft.row.user_id = user // as putUserId leaves it
    expect(await putSession(draft, deps)).toEqual({ ok: true })
    return { sessionId: draft.row.session_id, isNew: draft.newSession }
  }

  it('starts a session with the first event of a visitor', async () => {
    const first = await eventAt('ada', 0)
    expect(first.isNew).toBe(true)
    expect(first.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  it('continues it while events come at most 30 minutes apart, and starts a new one after more', async () => {
    const first = await eventAt('grace', 0)
    expect(await eventAt('grace', 29)).toEqual({ sessionId: first.sessionId, isNew: false })
    // 29 + 29.99: measured from the last event, not the first.
    expect(await eventAt('grace', 58.99)).toEqual({ sessionId: first.sessionId, isNew: false })
    // 30:00 after the last event still joins; 30:01 does not.
    expect(await eventAt('grace', 88.99)).toEqual({ sessionId: first.sessionId, isNew: false })
    const next = await eventAt('grace', 88.99 + 30 + 1 / 60)
    expect(next.isNew).toBe(true)
    expect(next.sessionId).not.toBe(first.sessionId)
  })

  it('keeps visitors and sites apart', async () => {
    const alice = await eventAt('alice', 0)
    const bob = await eventAt('bob', 0)
    const aliceElsewhere = await eventAt('alice', 0, 2)
    expect(bob.isNew && aliceElsewhere.isNew).toBe(true)
    expect(new Set([alice.sessionId, bob.sessionId, aliceElsewhere.sessionId]).size).toBe(3)
  })
})
