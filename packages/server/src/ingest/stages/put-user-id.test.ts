import crypto from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { DESKTOP_CHROME, INSTANCE_SECRET, NOW, openStageDeps, stageDraft } from '../draft.fixture.js'
import { putUserId } from './put-user-id.js'

const DAY = 86_400_000
const deps = await openStageDeps()
afterAll(() => deps.close())

describe('putUserId', () => {
  /** The user id `putUserId` gives this request. */
  const idOf = async (parts: Parameters<typeof stageDraft>[0] = {}) => {
    const draft = stageDraft(parts)
    expect(await putUserId(draft, deps)).toEqual({ ok: true })
    return draft.row.user_id
  }

  it('keeps the body’s user_id, trimmed', async () => {
    expect(await idOf({ body: { user_id: '  customer-42 ' } })).toBe('customer-42')
  })

  it('gives an anonymous id: 16 hex digits of SHA-256(instance secret, site, IP, user agent)', async () => {
    const expected = crypto
      .createHash('sha256')
      .update(`${INSTANCE_SECRET}\u00001\u0000203.0.113.7\u0000${DESKTOP_CHROME}`)
      .digest('hex')
      .slice(0, 16)
    expect(await idOf()).toBe(expected)
    expect(await idOf({ body: { user_id: '   ' } })).toBe(expected)
  })

  it('gives another visitor (address, user agent) or another site another anonymous id', async () => {
    const ids = [
      await idOf(),
      await idOf({ incoming: { ip: '203.0.113.8' } }),
      await idOf({ incoming: { userAgent: `${DESKTOP_CHROME} Edg/120.0.0.0` } }),
      await idOf({ site: { siteId: 2 } }),
    ]
    expect(new Set(ids).size).toBe(4)
  })

  it('keeps an anonymous id across days without saltUserIds', async () => {
    expect(await idOf({ now: NOW + 3 * DAY })).toBe(await idOf())
  })

  it('with saltUserIds, keeps it within a UTC day and changes it the next', async () => {
    const salted = (now: number) => idOf({ site: { saltUserIds: true }, now })
    const morning = await salted(Date.parse('2026-03-10T00:00:00.000Z'))
    expect(await salted(Date.parse('2026-03-10T23:59:59.999Z'))).toBe(morning)
    expect(await salted(Date.parse('2026-03-11T00:00:00.000Z'))).not.toBe(morning)
    expect(morning).not.toBe(await idOf())
  })
})
