/**
 * Funnel routes through the real app on SQLite + chDB and on PostgreSQL + chDB: a hand-built event set
 * imported at fixed times, with exact figures for out-of-order steps, repeated steps, equal timestamps,
 * a filter, a step matched by a numeric property value and a breakdown; the sessions behind a figure;
 * saved funnels created, read with results, changed and deleted (audited), validation and access.
 */
import type { FunnelReport, FunnelStepResult, FunnelWithResults, Session } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:124.0) Gecko/20100101 Firefox/124.0'
const T0 = Date.parse('2026-03-10T10:00:00.000Z')
const RANGE = 'start_date=2026-03-01&end_date=2026-03-31'

/** One import line: visitor `user` (its own session), `seconds` after T0. */
const line = (
  user: string,
  ua: string,
  seconds: number,
  event: { path?: string; name?: string; props?: object },
) =>
  JSON.stringify({
    timestamp: new Date(T0 + seconds * 1000).toISOString(),
    hostname: 'example.com',
    pathname: event.path ?? '/app',
    user_id: user,
    user_agent: ua,
    ...(event.name === undefined
      ? {}
      : { type: 'custom_event', event_name: event.name, properties: event.props ?? {} }),
  })

/**
 * Funnel: '/' -> '/pricing*' -> signup with seats = 3 (a number). Per session (one visitor each):
 * - a (Chrome): in order, 10 s and 60 s apart: reaches 3.
 * - b (Firefox): /pricing before /: reaches 1 only (out of order).
 * - c (Chrome): every step repeated: first matches at 0, 40, 100 s: reaches 3.
 * - d (Firefox): the three steps at the same millisecond (seats "3" as a string): reaches 3, 0 s apart.
 * - e (Chrome): signup with seats 4: reaches 2, 20 s apart.
 * - f (Chrome): /about only: not in the funnel.
 * - g (Firefox): / then signup, no pricing: reaches 1.
 */
const LINES = [
  line('a', CHROME, 0, { path: '/' }),
  line('a', CHROME, 10, { path: '/pricing' }),
  line('a', CHROME, 70, { name: 'signup', props: { seats: 3 } }),
  line('b', FIREFOX, 0, { path: '/pricing' }),
  line('b', FIREFOX, 5, { path: '/' }),
  line('b', FIREFOX, 20, { name: 'signup', props: { seats: 3 } }),
  line('c', CHROME, 0, { path: '/' }),
  line('c', CHROME, 30, { path: '/' }),
  line('c', CHROME, 40, { path: '/pricing/team' }),
  line('c', CHROME, 50, { path: '/pricing' }),
  line('c', CHROME, 100, { name: 'signup', props: { seats: 3 } }),
  line('c', CHROME, 200, { name: 'signup', props: { seats: 3.0 } }),
  line('d', FIREFOX, 0, { name: 'signup', props: { seats: '3' } }),
  line('d', FIREFOX, 0, { path: '/pricing' }),
  line('d', FIREFOX, 0, { path: '/' }),
  line('e', CHROME, 0, { path: '/' }),
  line('e', CHROME, 20, { path: '/pricing' }),
  line('e', CHROME, 30, { name: 'signup', props: { seats: 4 } }),
  line('f', CHROME, 0, { path: '/about' }),
  line('g', FIREFOX, 0, { path: '/' }),
  line('g', FIREFOX, 10, { name: 'signup', props: { seats: 3 } }),
]

const STEPS = [
  { type: 'path', pathPattern: '/', name: 'Home' },
  { type: 'path', pathPattern: '/pricing*' },
  { type: 'event', eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 3 },
]

/** The expected steps for sessions per step and median seconds (null for step 1). */
function expected(names: string[], sessions: number[], medians: (number | null)[]): FunnelStepResult[] {
  return sessions.map((n, i) => {
    const previous = i === 0 ? n : (sessions[i - 1] as number)
    return {
      step: i + 1,
      name: names[i] as string,
      sessions: n,
      conversionFromPrevious: previous === 0 ? 0 : n / previous,
      conversionFromStart: sessions[0] === 0 ? 0 : n / (sessions[0] as number),
      dropoff: previous - n,
      medianSecondsFromPrevious: medians[i] ?? null,
    }
  })
}
const NAMES = ['Home', '/pricing*', 'signup seats=3']

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('funnels on %s', (_name, postgres) => {
  let t: TestInstance
  let owner: { cookie: string; userId: string; organizationId: string }
  let site: Site
  let apiKey: string

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const asOwner = () => ({ cookie: owner.cookie })
  const query = async (body: unknown, params = RANGE) => {
    const response = await call('POST', `/api/sites/${site.siteId}/funnels/query?${params}`, asOwner(), body)
    expect(response.statusCode, response.body).toBe(200)
    return (response.json() as { data: FunnelReport }).data
  }
  const sessionsOf = async (params: string, body: unknown = { steps: STEPS }) => {
    const url = `/api/sites/${site.siteId}/funnels/sessions?${RANGE}&${params}`
    const response = await call('POST', url, asOwner(), body)
    expect(response.statusCode, response.body).toBe(200)
    const answer = response.json() as { data: Session[]; meta: { total: number } }
    return { users: answer.data.map((s) => s.user_id).sort(), total: answer.meta.total }
  }

  beforeAll(async () => {
    t = await openTestInstance({ postgres, clock: () => Date.parse('2026-03-20T12:00:00.000Z') })
    const seeded = await t.seed()
    owner = { cookie: seeded.cookie, userId: seeded.userId, organizationId: seeded.organizationId }
    site = seeded.site
    apiKey = seeded.apiKey
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: owner.cookie, 'content-type': 'application/x-ndjson' },
      payload: `${LINES.join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
  }, 60_000)
  afterAll(() => t.close())

  it('counts sessions per step in order: out-of-order, repeated, equal timestamps, numeric property', async () => {
    expect(await query({ steps: STEPS })).toEqual({ steps: expected(NAMES, [6, 4, 3], [null, 15, 60]) })
  })

  it('narrows sessions with filters', async () => {
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'browser', type: 'equals', value: ['Chrome'] }]),
    )
    expect(await query({ steps: STEPS }, `${RANGE}&filters=${filters}`)).toEqual({
      steps: expected(NAMES, [3, 3, 2], [null, 20, 60]),
    })
  })

  it('breaks the steps down by a filter parameter', async () => {
    expect(await query({ steps: STEPS }, `${RANGE}&breakdown=browser`)).toEqual({
      steps: expected(NAMES, [6, 4, 3], [null, 15, 60]),
      breakdown: {
        parameter: 'browser',
        values: [
          { value: 'Chrome', steps: expected(NAMES, [3, 3, 2], [null, 20, 60]) },
          { value: 'Firefox', steps: expected(NAMES, [3, 1, 1], [null, 0, 0]) },
        ],
      },
    })
  })

  it('is empty outside the data, and counts nothing for a step no session reached', async () => {
    expect(await query({ steps: STEPS }, 'start_date=2026-02-01&end_date=2026-02-28')).toEqual({
      steps: expected(NAMES, [0, 0, 0], [null, null, null]),
    })
    const never = [STEPS[0], { type: 'event', eventName: 'never' }]
    expect(await query({ steps: never })).toEqual({
      steps: expected(['Home', 'never'], [6, 0], [null, null]),
    })
  })

  it('lists the sessions behind a step and those that dropped after it', async () => {
    expect(await sessionsOf('step=2')).toEqual({ users: ['a', 'c', 'd', 'e'], total: 4 })
    expect(await sessionsOf('step=1&outcome=dropped')).toEqual({ users: ['b', 'g'], total: 2 })
    expect(await sessionsOf('step=2&outcome=dropped')).toEqual({ users: ['e'], total: 1 })
    expect(await sessionsOf('step=1&breakdown=browser&breakdown_value=Firefox')).toEqual({
      users: ['b', 'd', 'g'],
      total: 3,
    })
    const bad = await call(
      'POST',
      `/api/sites/${site.siteId}/funnels/sessions?step=3&outcome=dropped`,
      asOwner(),
      {
        steps: STEPS,
      },
    )
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error).toMatch(/step/)
  })

  it('rejects invalid steps naming the field', async () => {
    const url = `/api/sites/${site.siteId}/funnels/query`
    const cases: [unknown, string][] = [
      [{ steps: [STEPS[0]] }, 'steps'],
      [{ steps: [STEPS[0], { type: 'path', pathPattern: 'pricing' }] }, 'steps.1.pathPattern'],
      [{ steps: [STEPS[0], { type: 'event' }] }, 'steps.1.eventName'],
      [
        { steps: [STEPS[0], { type: 'event', eventName: 'x', eventPropertyKey: 'k' }] },
        'steps.1.eventPropertyValue',
      ],
      [{ steps: [STEPS[0], { type: 'goal' }] }, 'steps.1.type'],
      [{ steps: [STEPS[0], 'pricing'] }, 'steps.1'],
      [{ steps: [STEPS[0], { type: 'path', pathPattern: '/', colour: 1 }] }, 'steps.1'],
      [{ steps: [STEPS[0], { type: 'path', pathPattern: '/', scrollDepth: 0 }] }, 'steps.1.scrollDepth'],
      [{ steps: [STEPS[0], { type: 'path', pathPattern: '/', scrollDepth: 100.5 }] }, 'steps.1.scrollDepth'],
      [{ steps: [STEPS[0], { type: 'event', eventName: 'x', scrollDepth: 50 }] }, 'steps.1'],
      [{ steps: Array.from({ length: 11 }, () => STEPS[0]) }, 'steps'],
    ]
    for (const [body, field] of cases) {
      const response = await call('POST', url, asOwner(), body)
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(Object.keys(response.json().details.fieldErrors), JSON.stringify(body)).toEqual([field])
    }
    const wrongType = await call('POST', url, asOwner(), { steps: [STEPS[0], { type: 'goal' }] })
    expect(wrongType.json().error).toBe("Invalid funnel: steps.1.type: type must be 'path' or 'event'")
    const breakdown = await call('POST', `${url}?breakdown=colour`, asOwner(), { steps: STEPS })
    expect(breakdown.statusCode).toBe(400)
    expect(breakdown.json().details.fieldErrors.breakdown).toHaveLength(1)
  })

  it('saves, reads with results, changes, lists and deletes a funnel, audited', async () => {
    const base = `/api/sites/${site.siteId}/funnels`
    const created = await call('POST', base, asOwner(), { name: ' Signup ', steps: STEPS })
    expect(created.statusCode, created.body).toBe(201)
    const saved = created.json().data
    expect(saved).toEqual({
      funnelId: expect.any(Number),
      name: 'Signup',
      steps: STEPS,
      createdAt: expect.any(String),
    })

    const one = await call('GET', `${base}/${saved.funnelId}?${RANGE}`, asOwner())
    expect(one.json().data as FunnelWithResults).toEqual({
      ...saved,
      results: { steps: expected(NAMES, [6, 4, 3], [null, 15, 60]) },
    })
    const dropped = await call(
      'GET',
      `${base}/${saved.funnelId}/sessions?${RANGE}&step=1&outcome=dropped`,
      asOwner(),
    )
    expect(
      dropped
        .json()
        .data.map((s: Session) => s.user_id)
        .sort(),
    ).toEqual(['b', 'g'])

    const changed = await call('PATCH', `${base}/${saved.funnelId}`, asOwner(), { steps: STEPS.slice(0, 2) })
    expect(changed.json()).toEqual({ success: true, data: { ...saved, steps: STEPS.slice(0, 2) } })
    const list = await call('GET', base, asOwner())
    expect(list.json()).toEqual({
      success: true,
      data: [{ ...saved, steps: STEPS.slice(0, 2) }],
      meta: { total: 1 },
    })

    const v1 = await call('GET', `/api/v1/sites/${site.siteId}/funnels?${RANGE}`, {
      authorization: `Bearer ${apiKey}`,
    })
    expect(v1.statusCode, v1.body).toBe(200)
    expect(v1.json().data[0].results.steps).toEqual(expected(['Home', '/pricing*'], [6, 4], [null, 15]))
    expect(v1.json().meta.total).toBe(1)

    expect((await call('DELETE', `${base}/${saved.funnelId}`, asOwner())).statusCode).toBe(200)
    expect((await call('GET', `${base}/${saved.funnelId}`, asOwner())).statusCode).toBe(404)
    expect((await call('DELETE', `${base}/${saved.funnelId}`, asOwner())).statusCode).toBe(404)

    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, asOwner())
    const actions = (audit.json().data as { action: string; details: { funnelId: number } }[])
      .filter((entry) => entry.action.startsWith('funnel.'))
      .map((entry) => [entry.action, entry.details.funnelId])
    expect(actions).toEqual([
      ['funnel.deleted', saved.funnelId],
      ['funnel.updated', saved.funnelId],
      ['funnel.created', saved.funnelId],
    ])
  })

  it("deletes a site's funnels with the site", async () => {
    const other = await t.createSite(owner.cookie, owner.organizationId, 'other.example')
    const created = await call('POST', `/api/sites/${other.siteId}/funnels`, asOwner(), {
      name: 'Doomed',
      steps: STEPS,
    })
    expect(created.statusCode, created.body).toBe(201)
    const funnelsOf = () =>
      t.services.metadata.db
        .selectFrom('funnel')
        .select('funnel_id')
        .where('site_id', '=', other.siteId)
        .execute()
    expect(await funnelsOf()).toHaveLength(1)
    const gone = await call('DELETE', `/api/sites/${other.siteId}`, asOwner())
    expect(gone.statusCode, gone.body).toBe(200)
    expect(await funnelsOf()).toEqual([])
  })

  it('lets members read saved funnels but not write them', async () => {
    const base = `/api/sites/${site.siteId}/funnels`
    const member = await t.newMember(owner.organizationId)
    expect(member).toBeTruthy()
    const outsider = await t.signUp('outsider-funnels@example.com')
    expect((await call('GET', base, { cookie: outsider.cookie })).statusCode).toBe(404)
    expect(
      (await call('POST', base, { cookie: outsider.cookie }, { name: 'x', steps: STEPS })).statusCode,
    ).toBe(404)
    expect((await call('GET', base, {})).statusCode).toBe(401)
  })

  it("reads a saved funnel's figures for members only, an unknown funnel's 404 before invalid input", async () => {
    const base = `/api/sites/${site.siteId}/funnels`
    const created = await call('POST', base, asOwner(), { name: 'Members only', steps: STEPS })
    expect(created.statusCode, created.body).toBe(201)
    const funnelId = created.json().data.funnelId as number
    // An unknown or malformed id wins over an invalid step or breakdown; with the funnel, they are 400.
    for (const id of ['99999', 'nope']) {
      expect((await call('GET', `${base}/${id}?breakdown=nope`, asOwner())).statusCode).toBe(404)
      expect((await call('GET', `${base}/${id}/sessions?step=0`, asOwner())).statusCode).toBe(404)
    }
    const refused = await call('GET', `${base}/${funnelId}/sessions?${RANGE}&step=4`, asOwner())
    expect([refused.statusCode, refused.json().error]).toEqual([400, 'Invalid step: step must be at most 3'])
    // A private link key reads the ad-hoc funnel, not the saved one (members only): no caller, 401.
    const key = (
      await call('POST', `/api/sites/${site.siteId}/private-link-config`, asOwner(), {
        action: 'generate_private_link_key',
      })
    ).json().data.privateLinkKey as string
    const withKey = { 'x-private-key': key }
    const adHoc = await call('POST', `${base}/query?${RANGE}`, withKey, { steps: STEPS })
    expect(adHoc.statusCode, adHoc.body).toBe(200)
    expect((await call('GET', `${base}/${funnelId}?${RANGE}`, withKey)).statusCode).toBe(401)
    expect((await call('GET', `${base}/${funnelId}/sessions?${RANGE}&step=1`, withKey)).statusCode).toBe(401)
    const outsider = await t.signUp('outsider-saved-funnel@example.com')
    expect((await call('GET', `${base}/${funnelId}?${RANGE}`, { cookie: outsider.cookie })).statusCode).toBe(
      404,
    )
    const read = await call('GET', `${base}/${funnelId}?${RANGE}`, asOwner())
    expect(read.statusCode, read.body).toBe(200)
    expect(read.json().data.results.steps).toEqual(expected(NAMES, [6, 4, 3], [null, 15, 60]))
  })
})
