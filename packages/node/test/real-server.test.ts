/**
 * The client against the real server (a child process on embedded SQLite + chDB, loopback, geolocation
 * on): a pageview and a custom event are stored with the country of the forwarded IP and the browser of
 * the forwarded user agent; the server's refusals (wrong key, unknown site, invalid fields) reject with
 * the matching error classes and the server's details.
 */
import fs from 'node:fs'
import path from 'node:path'
import { Session } from 'chdb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServerProcess } from '../../server/src/testing/start-server-process.js'
import { Pathlight } from '../src/client.js'
import { PathlightAuthError, PathlightError, PathlightInvalidPayloadError } from '../src/errors.js'

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/120.0.0.0 Safari/537.36'
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'

let server: ServerProcess
let running = false
beforeAll(async () => {
  server = await startServerProcess()
  running = true
})
afterAll(async () => {
  if (running) await server.stop()
  else fs.rmSync(server.dataDir, { recursive: true, force: true })
})

const clientFor = (options: { apiKey?: string; siteId?: number } = {}) =>
  new Pathlight({
    analyticsHost: `${server.baseUrl}/api/`,
    siteId: options.siteId ?? server.siteId,
    apiKey: options.apiKey ?? server.apiKey,
    maxRetries: 1,
    backoffBaseMs: 10,
  })

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<PathlightError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(PathlightError)
  return error as PathlightError
}

/** Rows of the site, read with chDB from the data directory of the stopped server. */
async function storedEvents(dataDir: string, siteId: number) {
  const session = new Session(path.join(dataDir, 'events'))
  try {
    const result = await session.queryBindAsync(
      `SELECT type, user_id, hostname, pathname, page_title, referrer, event_name, properties, browser,
              operating_system, country, screen_width, language
       FROM events WHERE site_id = {site:UInt32} ORDER BY timestamp`,
      { site: siteId },
      { format: 'JSONEachRow' },
    )
    return result
      .text()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  } finally {
    session.close()
  }
}

describe('against the real server', () => {
  it('a wrong API key rejects with PathlightAuthError carrying 401 and the body', async () => {
    const error = await rejection(clientFor({ apiKey: 'pl_not_a_real_key' }).pageview({ pathname: '/' }))
    expect(error).toBeInstanceOf(PathlightAuthError)
    expect(error).toMatchObject({
      kind: 'auth',
      status: 401,
      attempts: 1,
      serverMessage: 'Invalid API key',
      body: { success: false, error: 'Invalid API key' },
    })
    expect(error.message).toBe('Pathlight: authentication failed (401 Invalid API key)')
  })

  it("an unknown site rejects with kind not_found; invalid fields with the server's details", async () => {
    const missing = await rejection(clientFor({ siteId: 999_999 }).pageview())
    expect(missing).toMatchObject({ kind: 'not_found', status: 404, serverMessage: 'Site not found' })

    const invalidIp = await rejection(clientFor().pageview({ ip_address: 'not-an-ip' }))
    expect(invalidIp).toBeInstanceOf(PathlightInvalidPayloadError)
    expect(invalidIp).toMatchObject({
      status: 400,
      attempts: 1,
      details: { fieldErrors: { ip_address: ['must be an IPv4 or IPv6 address'] }, formErrors: [] },
    })

    const tooLong = await rejection(clientFor().event('big', {}, { text: 'x'.repeat(2100) }))
    expect(tooLong).toMatchObject({
      kind: 'invalid_payload',
      details: { fieldErrors: { properties: ['must be at most 2048 characters'] } },
    })
  })

  it('a pageview and an event are stored with the forwarded IP country and UA browser', async () => {
    const client = clientFor()
    await expect(
      client.pageview({
        hostname: 'example.com',
        pathname: '/pricing',
        page_title: 'Pricing',
        referrer: 'https://www.google.com/',
        user_id: 'visitor-1',
        ip_address: '8.8.8.8',
        user_agent: CHROME_WINDOWS,
        screenWidth: 1920,
        screenHeight: 1080,
        language: 'en-US',
      }),
    ).resolves.toEqual({ success: true })
    await expect(
      client.event(
        'signup',
        { hostname: 'example.com', pathname: '/join', ip_address: '81.2.69.142', user_agent: FIREFOX_LINUX },
        { plan: 'pro', seats: 3, annual: true, tags: ['a', 'b'] },
      ),
    ).resolves.toEqual({ success: true })
    await expect.poll(() => server.countEvents()).toBe(2)

    await server.stop({ keepData: true })
    running = false
    const rows = await storedEvents(server.dataDir, server.siteId)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({
      type: 'pageview',
      hostname: 'example.com',
      pathname: '/pricing',
      page_title: 'Pricing',
      user_id: 'visitor-1',
      country: 'US',
      browser: 'Chrome',
      operating_system: 'Windows',
      screen_width: 1920,
      language: 'en-US',
    })
    expect(rows[1]).toMatchObject({
      type: 'custom_event',
      pathname: '/join',
      event_name: 'signup',
      properties: '{"plan":"pro","seats":3,"annual":true,"tags":["a","b"]}',
      country: 'GB',
      browser: 'Firefox',
      operating_system: 'Linux',
    })
  })
})
