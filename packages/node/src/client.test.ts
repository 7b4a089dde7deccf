/**
 * The client over HTTP against a scripted loopback server: the request it sends, how each answer maps to
 * a result or an error class, which answers are retried and how long it waits, the per-attempt timeout,
 * and the debug output (prefixed, the API key never printed).
 */
import { inspect } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type StubServer, startStubServer } from '../test/stub-server.js'
import { Pathlight } from './client.js'
import {
  PathlightAuthError,
  PathlightError,
  PathlightInvalidPayloadError,
  PathlightNetworkError,
  PathlightRateLimitError,
} from './errors.js'
import type { PathlightOptions } from './types.js'

const API_KEY = 'pl_live_Zx9SECRETkey0123456789'
let stub: StubServer
beforeAll(async () => {
  stub = await startStubServer()
})
afterAll(() => stub.close())
afterEach(() => {
  vi.restoreAllMocks()
})

const client = (options: Partial<PathlightOptions> = {}) =>
  new Pathlight({
    analyticsHost: `${stub.origin}/api`,
    siteId: 7,
    apiKey: API_KEY,
    backoffBaseMs: 1,
    backoffMaxMs: 5,
    ...options,
  })

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<PathlightError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(PathlightError)
    return error as PathlightError
  }
  throw new Error('expected a rejection')
}

const json = (body: string) => JSON.parse(body) as Record<string, unknown>

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('requests', () => {
  it('posts a pageview to {analyticsHost}/track with the bearer key and a JSON body', async () => {
    stub.script({ status: 200, body: { success: true } })
    const result = await client({ analyticsHost: `${stub.origin}/api/` }).pageview({
      pathname: '/pricing',
      hostname: 'example.com',
      screenWidth: 1280,
      ip_address: '8.8.8.8',
      referrer: undefined,
    })
    expect(result).toEqual({ success: true })
    expect(stub.requests).toHaveLength(1)
    const [request] = stub.requests
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe('/api/track')
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request?.headers['content-type']).toBe('application/json')
    expect(json(request?.body ?? '')).toEqual({
      site_id: '7',
      type: 'pageview',
      pathname: '/pricing',
      hostname: 'example.com',
      screenWidth: 1280,
      ip_address: '8.8.8.8',
      event_id: expect.stringMatching(UUID),
    })
  })

  it('posts a custom event with event_name and properties as a JSON object string', async () => {
    stub.script({ status: 200, body: { success: true } })
    await client({ siteId: '7' }).event(
      'signup',
      { pathname: '/join' },
      { plan: 'pro', seats: 3, tags: ['a'] },
    )
    const body = json(stub.requests[0]?.body ?? '')
    expect(body).toEqual({
      site_id: '7',
      type: 'custom_event',
      pathname: '/join',
      event_name: 'signup',
      properties: '{"plan":"pro","seats":3,"tags":["a"]}',
      event_id: expect.stringMatching(UUID),
    })
    stub.script({ status: 200, body: { success: true } })
    await client().event('ping')
    expect(json(stub.requests[0]?.body ?? '')).toEqual({
      site_id: '7',
      type: 'custom_event',
      event_name: 'ping',
      event_id: expect.stringMatching(UUID),
    })
  })

  it("resolves with the server's body when the site's configuration excluded the event", async () => {
    stub.script({ status: 200, body: { success: true, tracked: false, reason: 'excluded_ip' } })
    await expect(client().pageview()).resolves.toEqual({
      success: true,
      tracked: false,
      reason: 'excluded_ip',
    })
  })
})

describe('errors that are not retried', () => {
  it('400: PathlightInvalidPayloadError with the details, after one request', async () => {
    const details = { fieldErrors: { user_id: ['must be at most 256 characters'] }, formErrors: [] }
    stub.script({ status: 400, body: { success: false, error: 'Invalid payload', details } })
    const error = await rejection(client().pageview({ user_id: 'x'.repeat(300) }))
    expect(error).toBeInstanceOf(PathlightInvalidPayloadError)
    expect(error).toMatchObject({ kind: 'invalid_payload', status: 400, attempts: 1, details })
    expect(error.serverMessage).toBe('Invalid payload')
    expect(error.message).toBe(
      'Pathlight: invalid payload (400 Invalid payload: user_id: must be at most 256 characters)',
    )
    expect(stub.requests).toHaveLength(1)
  })

  it('401 and 403 Access denied: PathlightAuthError; other 403: kind forbidden', async () => {
    stub.script({ status: 401, body: { success: false, error: 'Invalid API key' } })
    const unauthorized = await rejection(client().pageview())
    expect(unauthorized).toBeInstanceOf(PathlightAuthError)
    expect(unauthorized).toMatchObject({
      kind: 'auth',
      status: 401,
      body: { success: false, error: 'Invalid API key' },
    })
    expect(stub.requests).toHaveLength(1)

    stub.script({ status: 403, body: { success: false, error: 'Access denied' } })
    expect(await rejection(client().pageview())).toMatchObject({ kind: 'auth', status: 403 })

    const scope = "This API key's scope (read) does not allow sending events"
    stub.script({ status: 403, body: { success: false, error: scope } })
    expect(await rejection(client().pageview())).toMatchObject({ kind: 'auth', status: 403 })

    stub.script({ status: 403, body: { success: false, error: 'Site is over its monthly pageview limit' } })
    const quota = await rejection(client().pageview())
    expect(quota).not.toBeInstanceOf(PathlightAuthError)
    expect(quota).toMatchObject({ kind: 'forbidden', status: 403, attempts: 1 })
    expect(quota.message).toBe('Pathlight: refused (403 Site is over its monthly pageview limit)')
    expect(stub.requests).toHaveLength(1)
  })

  it('404: site not found, or no tracking endpoint at that URL (a hint about /api)', async () => {
    stub.script({ status: 404, body: { success: false, error: 'Site not found' } })
    const site = await rejection(client().pageview())
    expect(site).toMatchObject({
      kind: 'not_found',
      status: 404,
      message: 'Pathlight: site 7 not found (404)',
    })
    stub.script({
      status: 404,
      body: { message: 'Route POST:/track not found', error: 'Not Found', statusCode: 404 },
    })
    const route = await rejection(client({ analyticsHost: stub.origin }).pageview())
    expect(route.kind).toBe('not_found')
    expect(route.message).toMatch(
      /no tracking endpoint at POST http:\/\/127\.0\.0\.1:\d+\/track .*\/api prefix/,
    )
    expect(stub.requests).toHaveLength(1)
  })

  it('413, redirects and non-JSON 2xx: kind unexpected_response; a redirect is not followed', async () => {
    stub.script({ status: 413, body: { success: false, error: 'Request body is too large' } })
    expect(await rejection(client().pageview())).toMatchObject({ kind: 'unexpected_response', status: 413 })
    stub.script({ status: 301, headers: { location: 'https://elsewhere.example/api/track' } })
    const redirect = await rejection(client().pageview())
    expect(redirect).toMatchObject({ kind: 'unexpected_response', status: 301, attempts: 1 })
    expect(redirect.message).toMatch(/redirected to https:\/\/elsewhere\.example\/api\/track/)
    stub.script({ status: 200, body: '<html>a website</html>' })
    const html = await rejection(client().pageview())
    expect(html).toMatchObject({ kind: 'unexpected_response', status: 200, body: '<html>a website</html>' })
    expect(stub.requests).toHaveLength(1)
  })
})

describe('retries', () => {
  it('retries 5xx with backoff and resolves when the server recovers', async () => {
    stub.script(
      { status: 503, body: { success: false, error: 'Events store unavailable, try again' } },
      { status: 502, body: 'Bad Gateway' },
      { status: 200, body: { success: true } },
    )
    await expect(client().pageview()).resolves.toEqual({ success: true })
    expect(stub.requests).toHaveLength(3)
    // The same event_id on every attempt: the server stores a retried event once.
    const ids = stub.requests.map((request) => json(request.body).event_id)
    expect(new Set(ids).size).toBe(1)
    expect(ids[0]).toMatch(UUID)
    await client().pageview()
    expect(json(stub.requests.at(-1)?.body ?? '').event_id).not.toBe(ids[0])
  })

  it('gives up after maxRetries: kind server with the last status and body', async () => {
    stub.script({ status: 500, body: { success: false, error: 'Internal server error' } })
    const error = await rejection(client({ maxRetries: 2 }).pageview())
    expect(error).toMatchObject({ kind: 'server', status: 500, attempts: 3 })
    expect(error.message).toBe('Pathlight: server error (500 Internal server error) after 3 attempts')
    expect(stub.requests).toHaveLength(3)
  })

  it('retries network failures (a dropped connection)', async () => {
    stub.script('destroy', { status: 200, body: { success: true } })
    await expect(client().pageview()).resolves.toEqual({ success: true })
    expect(stub.requests).toHaveLength(2)
  })

  it('429: waits the Retry-After, then retries', async () => {
    stub.script(
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { success: false, error: 'Rate limit exceeded' },
      },
      { status: 200, body: { success: true } },
    )
    const started = Date.now()
    await expect(client().pageview()).resolves.toEqual({ success: true })
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(stub.requests).toHaveLength(2)
  })

  it('429 with a Retry-After beyond maxRetryAfterMs: rejects at once with retryAfterSeconds', async () => {
    stub.script({
      status: 429,
      headers: {
        'retry-after': '120',
        'x-ratelimit-limit': '500',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '120',
      },
      body: { success: false, error: 'Rate limit exceeded: at most 500 requests per 10 minutes per API key' },
    })
    const started = Date.now()
    const error = await rejection(client({ maxRetryAfterMs: 60_000 }).pageview())
    expect(Date.now() - started).toBeLessThan(1000)
    expect(error).toBeInstanceOf(PathlightRateLimitError)
    expect(error).toMatchObject({
      kind: 'rate_limit',
      status: 429,
      attempts: 1,
      retryAfterSeconds: 120,
      rateLimit: { limit: 500, remaining: 0, resetSeconds: 120 },
    })
    expect(error.message).toMatch(/retry after 120 s; not retried: Retry-After 120 s exceeds maxRetryAfterMs/)
    expect(stub.requests).toHaveLength(1)
  })

  it('429 without Retry-After: backs off, then rejects with the rate-limit error', async () => {
    stub.script({ status: 429, body: { success: false, error: 'Rate limit exceeded' } })
    const error = await rejection(client({ maxRetries: 2 }).pageview())
    expect(error).toBeInstanceOf(PathlightRateLimitError)
    expect(error).toMatchObject({ attempts: 3, retryAfterSeconds: undefined })
    expect(stub.requests).toHaveLength(3)
  })

  it('maxRetries 0 sends exactly one request', async () => {
    stub.script({ status: 503, body: { success: false, error: 'Events store unavailable, try again' } })
    expect(await rejection(client({ maxRetries: 0 }).pageview())).toMatchObject({
      kind: 'server',
      attempts: 1,
    })
    expect(stub.requests).toHaveLength(1)
  })

  it('times out each attempt after timeoutMs: a network error with timedOut', async () => {
    stub.script('hang')
    const started = Date.now()
    const error = await rejection(client({ timeoutMs: 100, maxRetries: 1 }).pageview())
    expect(Date.now() - started).toBeLessThan(2000)
    expect(error).toBeInstanceOf(PathlightNetworkError)
    expect(error).toMatchObject({ kind: 'network', status: undefined, attempts: 2, timedOut: true })
    expect(error.message).toMatch(/timed out after 100 ms after 2 attempts$/)
    expect(stub.requests).toHaveLength(2)
  })
})

describe('debug output', () => {
  const capture = () => {
    const lines: string[] = []
    for (const method of ['log', 'info', 'debug', 'warn', 'error'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg))).join(' '))
      })
    }
    return lines
  }

  it('logs each request and answer with the [pathlight] prefix and never the API key', async () => {
    const lines = capture()
    const debugClient = client({ debug: true })
    stub.script(
      { status: 503, body: { success: false, error: 'Events store unavailable, try again' } },
      { status: 200, body: { success: true } },
    )
    await debugClient.event('signup', { user_id: 'u1' }, { plan: 'pro' })
    stub.script({ status: 401, body: { success: false, error: 'Invalid API key' } })
    const error = await rejection(debugClient.pageview({ pathname: '/x' }))
    // A caller that puts the key into a field by mistake still does not get it printed.
    stub.script({ status: 200, body: { success: true } })
    await debugClient.pageview({ user_id: API_KEY })

    expect(lines.length).toBeGreaterThanOrEqual(8)
    for (const line of lines) expect(line.startsWith('[pathlight] ')).toBe(true)
    const output = lines.join('\n')
    expect(output).toContain(`POST ${stub.origin}/api/track (attempt 1/4) authorization: Bearer [redacted]`)
    expect(output).toContain('"event_name":"signup"')
    expect(output).toMatch(/503 in \d+ ms: \{"success":false,"error":"Events store unavailable, try again"\}/)
    expect(output).toMatch(/retrying in \d+ ms/)
    expect(output).toMatch(/401 in \d+ ms: \{"success":false,"error":"Invalid API key"\}/)
    expect(output).toContain('"user_id":"[redacted]"')
    expect(output).not.toContain(API_KEY)
    expect(output).not.toContain(API_KEY.slice(0, 16))
    expect(error.message).not.toContain(API_KEY)
    expect(inspect(debugClient, { showHidden: true, depth: 5 })).not.toContain(API_KEY)
    expect(JSON.stringify(debugClient)).not.toContain(API_KEY)
  })

  it('prints nothing without debug', async () => {
    const lines = capture()
    stub.script(
      { status: 503, body: { success: false, error: 'x' } },
      { status: 200, body: { success: true } },
    )
    await client().pageview()
    expect(lines).toEqual([])
  })
})
