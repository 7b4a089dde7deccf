/**
 * `query()` against the real server (a child process on embedded SQLite + chDB, loopback): the visitors
 * and pageviews by page of the pageviews this file sent, counted from what it sent, and a refused
 * query, which rejects with the server's message naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServerProcess } from '../../server/src/testing/start-server-process.js'
import { Pathlight } from '../src/client.js'
import { PathlightInvalidPayloadError } from '../src/errors.js'

let server: ServerProcess
beforeAll(async () => {
  server = await startServerProcess({ env: { PATHLIGHT_V1_LIMIT: '100000' } })
})
afterAll(async () => {
  await server?.stop()
})

const clientFor = () =>
  new Pathlight({
    analyticsHost: `${server.baseUrl}/api`,
    siteId: server.siteId,
    apiKey: server.apiKey,
    maxRetries: 1,
    backoffBaseMs: 10,
  })

describe('query() against the real server', () => {
  it('answers the visitors and pageviews by page of what was sent, and rejects a refused query', async () => {
    const client = clientFor()
    const sent: [string, string][] = [
      ['a', '/one'],
      ['a', '/two'],
      ['b', '/one'],
      ['c', '/one'],
    ]
    for (const [visitor, pathname] of sent) {
      await client.pageview({ hostname: 'example.com', pathname, user_id: `query-${visitor}` })
    }
    await expect.poll(() => server.countEvents()).toBe(sent.length)
    const answer = await client.query({
      metrics: ['visitors', 'pageviews'],
      date_range: 'day',
      dimensions: ['event:page'],
      order_by: [['event:page', 'asc']],
    })
    const expected = ['/one', '/two'].map((page) => {
      const mine = sent.filter(([, p]) => p === page)
      return { dimensions: [page], metrics: [new Set(mine.map(([v]) => v)).size, mine.length] }
    })
    expect(answer.results).toEqual(expected)
    expect(answer.query.site_id).toBe(String(server.siteId))

    const refused = await client
      .query({ metrics: ['views_per_visit'], date_range: 'day', filters: [['is', 'event:page', ['/one']]] })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PathlightInvalidPayloadError)
    expect(String((refused as Error).message)).toMatch(/metrics: metric views_per_visit/)
  })
})
