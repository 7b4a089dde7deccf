/**
 * The per-API-key rate limit of the real server, shrunk through its env knobs so the test is fast: the
 * call after the limit rejects with PathlightRateLimitError carrying Retry-After (a long window: not
 * waited, rejected at once), and with a short window the client waits Retry-After and succeeds.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { type ServerProcess, startServerProcess } from '../../server/src/testing/start-server-process.js'
import { Pathlight } from '../src/client.js'
import { PathlightRateLimitError } from '../src/errors.js'

const LIMIT = 5
let longWindow: ServerProcess
let shortWindow: ServerProcess
beforeAll(async () => {
  ;[longWindow, shortWindow] = await Promise.all([
    startServerProcess({ env: { GEOIP: 'off', PATHLIGHT_TRACK_KEY_LIMIT: String(LIMIT) } }),
    startServerProcess({
      env: { GEOIP: 'off', PATHLIGHT_TRACK_KEY_LIMIT: '2', PATHLIGHT_TRACK_KEY_WINDOW_MS: '2000' },
    }),
  ])
})
afterAll(async () => {
  await Promise.all([longWindow?.stop(), shortWindow?.stop()])
})

it(`call ${LIMIT + 1} in a 10-minute window rejects at once: rate-limit error with retry-after`, async () => {
  const client = new Pathlight({
    analyticsHost: `${longWindow.baseUrl}/api`,
    siteId: longWindow.siteId,
    apiKey: longWindow.apiKey,
    maxRetries: 3,
    maxRetryAfterMs: 60_000,
  })
  for (let i = 0; i < LIMIT; i++) {
    await expect(client.pageview({ pathname: `/p/${i}` })).resolves.toEqual({ success: true })
  }
  const started = Date.now()
  const error = await client.pageview({ pathname: '/one-too-many' }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(Date.now() - started).toBeLessThan(1000)
  expect(error).toBeInstanceOf(PathlightRateLimitError)
  const rateLimited = error as PathlightRateLimitError
  expect(rateLimited).toMatchObject({
    kind: 'rate_limit',
    status: 429,
    attempts: 1,
    serverMessage: `Rate limit exceeded: at most ${LIMIT} requests per 10 minutes per API key`,
    rateLimit: { limit: LIMIT, remaining: 0 },
  })
  // The window is 600 s: Retry-After is what is left of it, beyond the 60 s the client waits.
  expect(rateLimited.retryAfterSeconds).toBeGreaterThan(500)
  expect(rateLimited.retryAfterSeconds).toBeLessThanOrEqual(600)
  expect(rateLimited.message).toMatch(/not retried: Retry-After \d+ s exceeds maxRetryAfterMs \(60000 ms\)/)
  await expect.poll(() => longWindow.countEvents()).toBe(LIMIT)
})

it('short window: 429 without retries; with retries it waits Retry-After and succeeds', async () => {
  const options = {
    analyticsHost: `${shortWindow.baseUrl}/api`,
    siteId: shortWindow.siteId,
    apiKey: shortWindow.apiKey,
  }
  const noRetries = new Pathlight({ ...options, maxRetries: 0 })
  await noRetries.pageview()
  await noRetries.pageview()
  const error = await noRetries.pageview().then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(PathlightRateLimitError)
  expect((error as PathlightRateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
  expect((error as PathlightRateLimitError).retryAfterSeconds).toBeLessThanOrEqual(2)

  const lines: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: string) => {
    lines.push(line)
  })
  const patient = new Pathlight({ ...options, maxRetries: 2, debug: true })
  const started = Date.now()
  await expect(patient.pageview({ pathname: '/after-the-wait' })).resolves.toEqual({ success: true })
  const elapsed = Date.now() - started
  vi.restoreAllMocks()
  // Answered 429 with Retry-After n, the client waited exactly n seconds (not its backoff), then got in.
  const retryAfter = /^\[pathlight\] retrying in (\d+) ms$/.exec(
    lines.find((l) => l.includes('retrying in')) ?? '',
  )
  expect(lines.some((line) => /^\[pathlight\] 429 in \d+ ms/.test(line))).toBe(true)
  expect(Number(retryAfter?.[1])).toBeGreaterThanOrEqual(1000)
  expect(Number(retryAfter?.[1]) % 1000).toBe(0)
  expect(elapsed).toBeGreaterThanOrEqual(Number(retryAfter?.[1]) - 50)
  expect(lines.at(-1)).toMatch(/^\[pathlight\] 200 in \d+ ms/)
})
