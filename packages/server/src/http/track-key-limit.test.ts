/**
 * The per-key tracking limit counts a key once however its Authorization header spells the Bearer
 * scheme (case, spaces, tabs): on SQLite with in-process buckets and on PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const SPELLINGS = (key: string) => [
  `Bearer ${key}`,
  `bearer ${key}`,
  `BEARER ${key}`,
  `Bearer  ${key}`,
  `Bearer\t${key}`,
  `bEaReR \t ${key}`,
  `Bearer ${key} `,
]

describe.each([
  ['SQLite, in-process buckets', { postgres: false, redis: false }],
  ['PostgreSQL + Redis', { postgres: true, redis: true }],
])('the tracking limit per API key on %s', (_name, backends) => {
  let t: TestInstance
  let site: Site
  let apiKey: string

  beforeAll(async () => {
    t = await openTestInstance({ ...backends, env: { PATHLIGHT_TRACK_KEY_LIMIT: '5' } })
    ;({ site, apiKey } = await t.seed())
  })
  afterAll(() => t.close())

  it('gives every spelling of the Bearer scheme one bucket: 5 events stored, the rest 429', async () => {
    const statuses: number[] = []
    for (const authorization of SPELLINGS(apiKey)) {
      for (let i = 0; i < 5; i++) {
        const response = await t.track(site, { pathname: `/${i}` }, { apiKey, headers: { authorization } })
        statuses.push(response.statusCode)
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(statuses.length - 5)
    await t.services.buffer.flush()
    const stored = await t.services.events.query<{ n: string | number }>(
      'SELECT count() AS n FROM events WHERE site_id = {site:UInt32}',
      { site: site.siteId },
    )
    expect(Number(stored[0]?.n)).toBe(5)
  })

  it('authenticates every spelling alike: an unknown key is 401 in each, never a fresh bucket', async () => {
    for (const authorization of SPELLINGS('pl_unknown')) {
      const response = await t.track(site, {}, { apiKey: 'pl_unknown', headers: { authorization } })
      expect(response.statusCode).toBe(401)
    }
  })
})
