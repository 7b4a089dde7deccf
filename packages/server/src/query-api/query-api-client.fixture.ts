/**
 * Test support: `POST /api/v2/query` on a test instance, as an integrator calls it (a Bearer key, a
 * JSON body). The instance, key and site are read when a request is made, so a test file can make the
 * client at module level and open its instance in `beforeAll`.
 */
import { expect } from 'vitest'
import type { TestInstance } from '../testing/test-instance.js'

type Body = Record<string, unknown>

/**
 * @param target the instance, an API key of the site's organization and the site's id, read per request
 * @param defaults body fields every request starts from (e.g. a `date_range`); the request's own win
 * @returns `query` (the raw answer) and `answer` (expects 200, returns the JSON)
 */
export function queryApiClient(
  target: () => { t: TestInstance; key: string; siteId: number },
  defaults: Body = {},
) {
  const query = (body: Body) => {
    const { t, key, siteId } = target()
    return t.app.inject({
      method: 'POST',
      url: '/api/v2/query',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { site_id: siteId, ...defaults, ...body },
    })
  }
  const answer = async (body: Body) => {
    const response = await query(body)
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  return { query, answer }
}
