/**
 * The conversion report functions called directly (the routes' answers are `goals.test.ts` and
 * `funnels.test.ts`): on the report fixture's rows (`query/report-data.fixture.ts`, site 7's March) in
 * the real chDB and SQLite stores, a saved goal's and funnel's lookups and figures, and each report's
 * checks before it runs anything.
 */
import { funnelSessionsQuery, getFunnelEndpoint, listGoalsEndpoint } from '@pathlight/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseParams } from '../query/params.js'
import { reportRows } from '../query/report-data.fixture.js'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { conversionReportLookups, conversionReportParts } from './conversion-report-parts.js'
import type { ReportPartDeps } from './report-part.js'

const RANGE = { start_date: '2026-03-01', end_date: '2026-03-31' }
/** /pricing, then the signup event: s1 and s3 reach both (the fixture's table). */
const STEPS = [
  { type: 'path', pathPattern: '/pricing' },
  { type: 'event', eventName: 'signup' },
] as const

let t: TestInstance
let site: Site
let cookie: string
let deps: ReportPartDeps

beforeAll(async () => {
  const clock = () => Date.parse('2026-03-25T12:00:00.000Z')
  t = await openTestInstance({ clock })
  const seeded = await t.seed()
  site = seeded.site
  cookie = seeded.cookie
  await t.services.events.insert(
    reportRows.filter((row) => row.site_id === 7).map((row) => ({ ...row, site_id: site.siteId })),
  )
  deps = { events: t.services.events, db: t.services.metadata.db, clock }
}, 60_000)
afterAll(() => t.close())

/** Save `body` at the site's `what` (goals, funnels) as its owner. @returns the answer's JSON */
async function save(what: string, body: unknown) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${site.siteId}/${what}`,
    headers: { cookie },
    payload: body as object,
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

describe('conversion report parts', () => {
  it("finds a saved goal and funnel of the site only, and reads the funnel's figures", async () => {
    const { goalId } = await save('goals', {
      name: 'Pricing',
      goalType: 'path',
      config: { pathPattern: '/pricing' },
    })
    const funnel = (await save('funnels', { name: 'Pricing to signup', steps: STEPS })).data
    const goal = await conversionReportLookups['goal-sessions'](deps, site.siteId, { goalId: String(goalId) })
    expect(goal).toMatchObject({ goalId, name: 'Pricing' })
    // Another site's, an unknown or a malformed id: 404.
    const { 'goal-sessions': findGoal, 'saved-funnel': findFunnel } = conversionReportLookups
    await expect(findGoal(deps, site.siteId, { goalId: '99999' })).rejects.toMatchObject({ status: 404 })
    await expect(
      findFunnel(deps, site.siteId + 1, { funnelId: String(funnel.funnelId) }),
    ).rejects.toMatchObject({ status: 404 })
    await expect(findFunnel(deps, site.siteId, { funnelId: 'nope' })).rejects.toMatchObject({ status: 404 })
    const found = await conversionReportLookups['saved-funnel'](deps, site.siteId, {
      funnelId: String(funnel.funnelId),
    })
    expect(found).toEqual(funnel)
    const query = parseParams(getFunnelEndpoint.query, RANGE)
    const answer = await conversionReportParts['saved-funnel'](deps, site.siteId, query, {
      params: { funnelId: String(funnel.funnelId) },
      body: undefined,
      found: funnel,
    })()
    expect(answer.data.results.steps.map((step) => step.sessions)).toEqual([2, 2])
    expect(answer.data).toMatchObject({ funnelId: funnel.funnelId, name: 'Pricing to signup' })
  })

  it('checks the step selection against the steps as it prepares, before anything runs', () => {
    const query = parseParams(funnelSessionsQuery, { ...RANGE, step: '3' })
    const prepare = () =>
      conversionReportParts['funnel-sessions'](deps, site.siteId, query, {
        params: {},
        body: { steps: [...STEPS] },
        found: undefined,
      })
    expect(prepare).toThrow('Invalid step: step must be at most 2')
  })

  it('needs the metadata store for the goals list', () => {
    const query = parseParams(listGoalsEndpoint.query, RANGE)
    const { db: _, ...eventsOnly } = deps
    expect(() => conversionReportParts.goals(eventsOnly, site.siteId, query)).toThrow(
      'the goals report needs the metadata store',
    )
  })
})
