/**
 * Experiments through the real app on SQLite + chDB and on PostgreSQL + chDB: events ingested with
 * POST /api/track at controlled times, experiments managed through the routes, and exact results read
 * with `listExperimentsWithResults` (what the v1 API serves).
 *
 * Experiment `pricing-page` (variants `control` (the control) and `new`), goal: custom event `signup`.
 * One visitor per session, March 2026 (UTC):
 *
 * | visitor | events                                                          | counts as              |
 * |---------|-----------------------------------------------------------------|------------------------|
 * | v1      | 03-10 10:00 exposed control, 10:05 signup                       | control, converted     |
 * | v2      | 03-10 11:00 exposed control                                     | control                |
 * | v3      | 03-10 12:00 signup, 12:01 exposed control                       | control, not converted |
 * | v4 (FF) | 03-10 13:00 exposed control                                     | control                |
 * | v5      | 03-11 09:00 exposed new, 09:02 signup                           | new, converted         |
 * | v6      | 03-11 10:00 exposed new, 10:10 exposed control, 10:20 signup    | new, converted, cross  |
 * | v7 (FF) | 03-11 11:00 pageview /pricing carrying the exposure to new      | new                    |
 * | v8      | 03-12 09:00 exposed `other` (not a variant), 09:01 signup       | not exposed            |
 * | v9      | 04-01 09:00 exposed control                                     | outside March          |
 *
 * March: control 4 exposed, 1 conversion (0.25); new 3 exposed, 2 conversions (2/3); 1 crossover.
 * FF = Firefox, the others Chrome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listExperimentsWithResults } from '../experiments/list-experiments-with-results.js'
import { parseQueryParams } from '../query/params.js'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:124.0) Gecko/20100101 Firefox/124.0'

const exposure = (variant: string, experiment = 'pricing-page') => ({
  type: 'custom_event',
  event_name: 'experiment_viewed',
  pathname: '/pricing',
  properties: JSON.stringify({ experiment, variant }),
})
const signup = {
  type: 'custom_event',
  event_name: 'signup',
  pathname: '/signup',
  properties: '{"plan":"pro"}',
}

const variants = [{ name: 'control', control: true }, { name: 'new' }]

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('experiments on %s', (_name, postgres) => {
  let t: TestInstance
  let now = Date.parse('2026-03-10T10:00:00.000Z')
  let owner: { cookie: string; userId: string }
  let site: Site
  let apiKey: string
  let signupGoal: number

  /** An event of `visitor` (in the US), sent by the owner's server at `at` (the instance's clock). */
  const track = async (at: string, visitor: string, body: Record<string, unknown>, userAgent = CHROME) => {
    now = Date.parse(at)
    const event = { hostname: 'example.com', ip_address: '8.8.8.8', user_agent: userAgent, user_id: visitor }
    const response = await t.track(site, { ...event, ...body }, { apiKey })
    expect(response.statusCode, response.body).toBe(200)
  }
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    cookie: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
  const experimentsUrl = (siteId = site.siteId) => `/api/sites/${siteId}/experiments`
  const createGoal = async (body: unknown, siteId = site.siteId) => {
    const response = await call('POST', `/api/sites/${siteId}/goals`, owner.cookie, body)
    expect(response.statusCode, response.body).toBe(201)
    return (response.json() as { goalId: number }).goalId
  }
  const create = async (body: Record<string, unknown>, siteId = site.siteId) => {
    const response = await call('POST', experimentsUrl(siteId), owner.cookie, body)
    expect(response.statusCode, response.body).toBe(201)
    return (response.json() as { data: { experimentId: number } }).data.experimentId
  }
  const results = (query: Record<string, string> = {}) =>
    listExperimentsWithResults(
      t.services.metadata.db,
      t.services.events,
      site.siteId,
      parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31', ...query }, now),
    )

  beforeAll(async () => {
    t = await openTestInstance({ postgres, clock: () => now })
    const seeded = await t.seed()
    owner = { cookie: seeded.cookie, userId: seeded.userId }
    site = seeded.site
    apiKey = seeded.apiKey
    signupGoal = await createGoal({ name: 'Signup', goalType: 'event', config: { eventName: 'signup' } })

    await track('2026-03-10T10:00:00.000Z', 'v1', exposure('control'))
    await track('2026-03-10T10:05:00.000Z', 'v1', signup)
    await track('2026-03-10T11:00:00.000Z', 'v2', exposure('control'))
    await track('2026-03-10T12:00:00.000Z', 'v3', signup)
    await track('2026-03-10T12:01:00.000Z', 'v3', exposure('control'))
    await track('2026-03-10T13:00:00.000Z', 'v4', exposure('control'), FIREFOX)
    await track('2026-03-11T09:00:00.000Z', 'v5', exposure('new'))
    await track('2026-03-11T09:02:00.000Z', 'v5', signup)
    await track('2026-03-11T10:00:00.000Z', 'v6', exposure('new'))
    await track('2026-03-11T10:10:00.000Z', 'v6', exposure('control'))
    await track('2026-03-11T10:20:00.000Z', 'v6', signup)
    await track(
      '2026-03-11T11:00:00.000Z',
      'v7',
      { pathname: '/pricing', properties: JSON.stringify({ experiment: 'pricing-page', variant: 'new' }) },
      FIREFOX,
    )
    await track('2026-03-12T09:00:00.000Z', 'v8', exposure('other'))
    await track('2026-03-12T09:01:00.000Z', 'v8', signup)
    await track('2026-04-01T09:00:00.000Z', 'v9', exposure('control'))
    await t.services.buffer.flush()
    now = Date.parse('2026-04-02T08:00:00.000Z')
  }, 60_000)
  afterAll(() => t.close())

  it('creates, reads, lists and audits an experiment', async () => {
    now = Date.parse('2026-04-02T08:00:00.000Z')
    const response = await call('POST', experimentsUrl(), owner.cookie, {
      name: ' Pricing page ',
      key: 'pricing-page',
      description: 'Does the new pricing page convert better?',
      variants,
      goalId: signupGoal,
    })
    expect(response.statusCode, response.body).toBe(201)
    const created = response.json() as { success: boolean; data: { experimentId: number } }
    const experiment = {
      experimentId: created.data.experimentId,
      siteId: site.siteId,
      key: 'pricing-page',
      name: 'Pricing page',
      description: 'Does the new pricing page convert better?',
      variants: [
        { name: 'control', control: true },
        { name: 'new', control: false },
      ],
      goalId: signupGoal,
      status: 'draft',
      createdAt: '2026-04-02T08:00:00.000Z',
      updatedAt: '2026-04-02T08:00:00.000Z',
    }
    expect(created).toEqual({ success: true, data: experiment })

    const one = await call('GET', `${experimentsUrl()}/${experiment.experimentId}`, owner.cookie)
    expect(one.json()).toEqual({ success: true, data: experiment })
    const list = await call('GET', experimentsUrl(), owner.cookie)
    expect(list.json()).toEqual({ success: true, data: [experiment], meta: { total: 1 } })

    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)
    expect(audit.json().data[0]).toMatchObject({
      action: 'experiment.created',
      actorUserId: owner.userId,
      details: {
        experimentId: experiment.experimentId,
        key: 'pricing-page',
        name: 'Pricing page',
        status: 'draft',
      },
    })
  })

  it('computes exact results per variant from the tracked events', async () => {
    const [withResults] = await results()
    // By hand: pooled 3/7, SE √(3/7·4/7·(1/4 + 1/3)) = √(1/7); difference 2/3 - 1/4 = 5/12;
    // z = (5/12)·√7 = 1.1023963796; p = 2Φ(-z) = 0.2702893848 (scipy); uplift (5/12)/(1/4) = 5/3;
    // Wald SE √(0.25·0.75/4 + (2/3)(1/3)/3), interval [-0.2649643827, 1.0982977160].
    expect(withResults?.key).toBe('pricing-page')
    expect(withResults?.results).toEqual({
      variants: [
        {
          name: 'control',
          control: true,
          exposedSessions: 4,
          conversions: 1,
          conversionRate: 0.25,
          uplift: null,
          zScore: null,
          pValue: null,
          ci95: null,
        },
        {
          name: 'new',
          control: false,
          exposedSessions: 3,
          conversions: 2,
          conversionRate: 2 / 3,
          uplift: expect.closeTo(5 / 3, 12),
          zScore: expect.closeTo((5 / 12) * Math.sqrt(7), 12),
          pValue: expect.closeTo(0.2702893848016986, 12),
          ci95: [expect.closeTo(-0.26496438269701883, 12), expect.closeTo(1.098297716030352, 12)],
        },
      ],
      crossovers: 1,
      totalExposedSessions: 7,
    })

    // Firefox sessions only: v4 (control) and v7 (new), neither converted: no statistics.
    const filters = JSON.stringify([{ parameter: 'browser', type: 'equals', value: ['Firefox'] }])
    const [firefox] = await results({ filters })
    expect(firefox?.results).toEqual({
      variants: [
        expect.objectContaining({ exposedSessions: 1, conversions: 0, conversionRate: 0 }),
        {
          name: 'new',
          control: false,
          exposedSessions: 1,
          conversions: 0,
          conversionRate: 0,
          uplift: null,
          zScore: null,
          pValue: null,
          ci95: null,
        },
      ],
      crossovers: 0,
      totalExposedSessions: 2,
    })

    // 2026-03-11 only: v5, v6 (new, converted; v6 crossed over), v7 (new).
    const [day] = await results({ start_date: '2026-03-11', end_date: '2026-03-11' })
    expect(day?.results.variants.map((v) => [v.exposedSessions, v.conversions])).toEqual([
      [0, 0],
      [3, 2],
    ])
    expect(day?.results.crossovers).toBe(1)

    // April (v9 alone, in the control).
    const [april] = await results({ start_date: '2026-04-01', end_date: '2026-04-30' })
    expect(april?.results.variants.map((v) => v.exposedSessions)).toEqual([1, 0])
  })

  it('pages the experiments of the site only, oldest first', async () => {
    const other = await t.createSite(owner.cookie, site.organizationId)
    const otherGoal = await createGoal(
      { name: 'x', goalType: 'path', config: { pathPattern: '/' } },
      other.siteId,
    )
    await create({ name: 'Elsewhere', key: 'pricing-page', variants, goalId: otherGoal }, other.siteId)
    const second = await create({ name: 'Second', key: 'second', variants, goalId: signupGoal })
    const all = await results()
    expect(all.map((e) => e.key)).toEqual(['pricing-page', 'second'])
    expect(all[1]?.results.totalExposedSessions).toBe(0)
    const page2 = await results({ page: '2', limit: '1' })
    expect(page2.map((e) => e.experimentId)).toEqual([second])
    await call('DELETE', `${experimentsUrl()}/${second}`, owner.cookie)
  })

  it.each([
    [{ key: 'x', variants, goalId: 1 }, 'name', 'Invalid experiment: name: name is required'],
    [{ name: 'x', key: 'Bad Key', variants, goalId: 1 }, 'key', 'Invalid experiment: key: key must be 1-64'],
    [
      { name: 'x', key: 'k', variants: [{ name: 'a', control: true }], goalId: 1 },
      'variants',
      'Invalid experiment: variants: variants must hold at least 2 variants',
    ],
    [
      { name: 'x', key: 'k', variants: [{ name: 'a' }, { name: 'b' }], goalId: 1 },
      'variants',
      'Invalid experiment: variants: exactly one variant must have control: true (found 0)',
    ],
    [
      { name: 'x', key: 'k', variants: [{ name: 'a', control: true }, { name: 'a' }], goalId: 1 },
      'variants.1.name',
      'Invalid experiment: variants.1.name: variant names must be unique',
    ],
    [{ name: 'x', key: 'k', variants }, 'goalId', 'Invalid experiment: goalId: goalId is required'],
    [
      { name: 'x', key: 'k', variants, goalId: 99_999 },
      'goalId',
      'Invalid experiment: goalId: goalId 99999 is not',
    ],
    [
      { name: 'x', key: 'k', variants, goalId: 1, status: 'paused' },
      'status',
      'Invalid experiment: status: status must be one of draft, running, completed',
    ],
  ])('refuses %j with 400 naming %s', async (body, field, error) => {
    const response = await call('POST', experimentsUrl(), owner.cookie, body)
    expect(response.statusCode).toBe(400)
    const answer = response.json()
    expect(answer).toMatchObject({ success: false, details: { fieldErrors: { [field]: expect.any(Array) } } })
    expect(answer.error).toContain(error)
  })

  it("refuses another site's goal, and a key the site already uses (409)", async () => {
    const other = await t.createSite(owner.cookie, site.organizationId)
    const foreignGoal = await createGoal(
      { name: 'Foreign', goalType: 'event', config: { eventName: 'signup' } },
      other.siteId,
    )
    const refused = await call('POST', experimentsUrl(), owner.cookie, {
      name: 'x',
      key: 'foreign-goal',
      variants,
      goalId: foreignGoal,
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toEqual({
      success: false,
      error: `Invalid experiment: goalId: goalId ${foreignGoal} is not a goal of this site`,
      details: {
        fieldErrors: { goalId: [`goalId ${foreignGoal} is not a goal of this site`] },
        formErrors: [],
      },
    })

    const body = { name: 'Dup', key: 'duplicate', variants, goalId: signupGoal }
    await create(body)
    const duplicate = await call('POST', experimentsUrl(), owner.cookie, body)
    expect(duplicate.statusCode).toBe(409)
    expect(duplicate.json()).toEqual({
      success: false,
      error: 'Invalid experiment: key: this site already has an experiment with key "duplicate"',
    })
    await create({ ...body, goalId: foreignGoal }, other.siteId)
  })

  it('updates partially, validates the merged experiment, and audits the change', async () => {
    const id = await create({ name: 'Patch me', key: 'patch-me', variants, goalId: signupGoal })
    const url = `${experimentsUrl()}/${id}`
    now = Date.parse('2026-04-03T09:30:00.000Z')
    const running = await call('PATCH', url, owner.cookie, { status: 'running', description: 'Now live' })
    expect(running.statusCode, running.body).toBe(200)
    expect(running.json().data).toMatchObject({
      experimentId: id,
      name: 'Patch me',
      key: 'patch-me',
      status: 'running',
      description: 'Now live',
      variants: [
        { name: 'control', control: true },
        { name: 'new', control: false },
      ],
      updatedAt: '2026-04-03T09:30:00.000Z',
    })
    expect(running.json().data.createdAt).not.toBe('2026-04-03T09:30:00.000Z')

    const noControl = await call('PATCH', url, owner.cookie, { variants: [{ name: 'a' }, { name: 'b' }] })
    expect(noControl.statusCode).toBe(400)
    expect(noControl.json().error).toBe(
      'Invalid experiment: variants: exactly one variant must have control: true (found 0)',
    )
    const taken = await call('PATCH', url, owner.cookie, { key: 'pricing-page' })
    expect(taken.statusCode).toBe(409)
    const unknown = await call('PATCH', url, owner.cookie, { experimentId: 7 })
    expect(unknown.json().error).toBe('Invalid experiment: unknown fields: experimentId')
    // Refusals changed nothing.
    expect((await call('GET', url, owner.cookie)).json().data).toMatchObject({
      key: 'patch-me',
      status: 'running',
      variants: [{ name: 'control' }, { name: 'new' }],
    })

    const renamed = await call('PATCH', url, owner.cookie, { key: 'patched', description: null })
    expect(renamed.json().data).toMatchObject({ key: 'patched', description: null })
    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)
    expect(audit.json().data[0]).toMatchObject({
      action: 'experiment.updated',
      details: { experimentId: id, key: 'patched', changed: ['key', 'description'], status: 'running' },
    })
  })

  it("answers 404 for another site's experiment, malformed ids and a deleted experiment", async () => {
    const other = await t.createSite(owner.cookie, site.organizationId)
    const otherGoal = await createGoal(
      { name: 'g', goalType: 'path', config: { pathPattern: '/' } },
      other.siteId,
    )
    const foreign = await create({ name: 'Theirs', key: 'theirs', variants, goalId: otherGoal }, other.siteId)
    const mine = await create({ name: 'Mine', key: 'mine', variants, goalId: signupGoal })
    for (const id of [String(foreign), 'abc', '0', '99999999999']) {
      const url = `${experimentsUrl()}/${id}`
      for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
        const response = await call(method, url, owner.cookie, body)
        expect(response.statusCode, `${method} ${id}`).toBe(404)
        expect(response.json()).toEqual({ success: false, error: 'Experiment not found' })
      }
    }
    const deleted = await call('DELETE', `${experimentsUrl()}/${mine}`, owner.cookie)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json()).toEqual({ success: true })
    expect((await call('GET', `${experimentsUrl()}/${mine}`, owner.cookie)).statusCode).toBe(404)
    expect((await call('DELETE', `${experimentsUrl()}/${mine}`, owner.cookie)).statusCode).toBe(404)
    const audit = await call('GET', `/api/sites/${site.siteId}/audit-log`, owner.cookie)
    expect(audit.json().data[0]).toMatchObject({
      action: 'experiment.deleted',
      details: { experimentId: mine, key: 'mine' },
    })
    // The other site's experiment is untouched.
    const theirs = (await call('GET', experimentsUrl(other.siteId), owner.cookie)).json()
    expect(theirs.data.map((e: { experimentId: number }) => e.experimentId)).toEqual([foreign])
  })

  it('keeps the experiment when its goal is deleted: exposures only, until a new goal is set', async () => {
    const goal = await createGoal({ name: 'Doomed', goalType: 'event', config: { eventName: 'signup' } })
    const id = await create({ name: 'Orphan', key: 'orphan', variants, goalId: goal })
    // Exposures are counted under the key `orphan`: none were tracked, so track one of each kind.
    now = Date.parse('2026-03-20T10:00:00.000Z')
    await track('2026-03-20T10:00:00.000Z', 'o1', exposure('new', 'orphan'))
    await track('2026-03-20T10:01:00.000Z', 'o1', signup)
    await t.services.buffer.flush()
    const before = (await results()).find((e) => e.experimentId === id)
    expect(before?.results.variants.map((v) => [v.exposedSessions, v.conversions])).toEqual([
      [0, 0],
      [1, 1],
    ])

    expect((await call('DELETE', `/api/sites/${site.siteId}/goals/${goal}`, owner.cookie)).statusCode).toBe(
      200,
    )
    const orphan = (await call('GET', `${experimentsUrl()}/${id}`, owner.cookie)).json().data
    expect(orphan.goalId).toBeNull()
    const after = (await results()).find((e) => e.experimentId === id)
    expect(after?.goalId).toBeNull()
    expect(after?.results).toEqual({
      variants: [
        {
          name: 'control',
          control: true,
          exposedSessions: 0,
          conversions: null,
          conversionRate: null,
          uplift: null,
          zScore: null,
          pValue: null,
          ci95: null,
        },
        {
          name: 'new',
          control: false,
          exposedSessions: 1,
          conversions: null,
          conversionRate: null,
          uplift: null,
          zScore: null,
          pValue: null,
          ci95: null,
        },
      ],
      crossovers: 0,
      totalExposedSessions: 1,
    })

    // Other fields can still change; a new goal brings the conversions back.
    const renamed = await call('PATCH', `${experimentsUrl()}/${id}`, owner.cookie, { status: 'completed' })
    expect(renamed.json().data).toMatchObject({ status: 'completed', goalId: null })
    const regoaled = await call('PATCH', `${experimentsUrl()}/${id}`, owner.cookie, { goalId: signupGoal })
    expect(regoaled.json().data.goalId).toBe(signupGoal)
    const again = (await results()).find((e) => e.experimentId === id)
    expect(again?.results.variants[1]).toMatchObject({
      exposedSessions: 1,
      conversions: 1,
      conversionRate: 1,
    })
  })

  it('lets members read but not write, and deletes experiments with their site', async () => {
    const member = await t.signUp()
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: site.organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    expect((await call('GET', experimentsUrl(), member.cookie)).statusCode).toBe(200)
    const body = { name: 'm', key: 'by-member', variants, goalId: signupGoal }
    const refused = await call('POST', experimentsUrl(), member.cookie, body)
    expect(refused.statusCode).toBe(403)

    const doomed = await t.createSite(owner.cookie, site.organizationId)
    const goal = await createGoal(
      { name: 'g', goalType: 'path', config: { pathPattern: '/' } },
      doomed.siteId,
    )
    await create({ name: 'A', key: 'a', variants, goalId: goal }, doomed.siteId)
    await create({ name: 'B', key: 'b', variants, goalId: goal }, doomed.siteId)
    const count = async () =>
      Number(
        (
          await t.services.metadata.db
            .selectFrom('experiment')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('site_id', '=', doomed.siteId)
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await count()).toBe(2)
    expect((await call('DELETE', `/api/sites/${doomed.siteId}`, owner.cookie)).statusCode).toBe(200)
    expect(await count()).toBe(0)
  })
})
