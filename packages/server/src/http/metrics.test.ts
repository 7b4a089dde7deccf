/**
 * `GET /metrics` on real instances: absent without METRICS_TOKEN; with it, Bearer-protected and
 * serving parseable Prometheus text whose series follow what the instance did.
 * The instance with the token opens first: the test instances of a process share one response
 * validator, built from the first instance's routes, and only that one has `/metrics`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

const TOKEN = 'scrape-token-for-tests-0123456789'
const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

/** One sample: `name{labels} value`. */
interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/**
 * Parse the text exposition format (0.0.4): `# HELP` / `# TYPE` comments and `name{labels} value`
 * lines. @throws on any other line
 */
function parseSamples(text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = pair[2] ?? ''
    }
    // Values as Prometheus reads them (Go's ParseFloat): decimals, ±Inf, NaN (prom-client writes `Nan`).
    const text = match[3] ?? ''
    const special: Record<string, number> = {
      nan: Number.NaN,
      '+inf': Infinity,
      inf: Infinity,
      '-inf': -Infinity,
    }
    const value = special[text.toLowerCase()] ?? Number(text)
    if (Number.isNaN(value) && text.toLowerCase() !== 'nan') throw new Error(`not a number: ${line}`)
    samples.push({ name: match[1] ?? '', labels, value })
  }
  return samples
}

/** The value of the sample with this name and (at least) these labels, or undefined. */
const sampleValue = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

describe('GET /metrics with METRICS_TOKEN set', () => {
  let t: TestInstance
  let site: Site
  let cookie: string

  const scrape = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(response.statusCode).toBe(200)
    return { response, samples: parseSamples(response.body) }
  }

  beforeAll(async () => {
    t = await openTestInstance({ env: { METRICS_TOKEN: TOKEN } })
    ;({ site, cookie } = await t.seed())
  })
  afterAll(() => t.close())

  it.each([
    ['no token', {}],
    ['another token', { authorization: 'Bearer not-the-metrics-token-at-all' }],
    ['the token in another scheme', { authorization: `Basic ${TOKEN}` }],
  ])('answers 401 with the error body to %s', async (_, headers) => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers })
    expect(response.statusCode).toBe(401)
    expect(response.json()).toEqual({ success: false, error: 'A valid metrics token is required' })
    expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"')
  })

  it('serves parseable Prometheus text, every series prefixed pathlight_, process memory included', async () => {
    const { response, samples } = await scrape()
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(samples.length).toBeGreaterThan(0)
    expect(samples.filter((s) => !s.name.startsWith('pathlight_'))).toEqual([])
    expect(sampleValue(samples, 'pathlight_process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(sampleValue(samples, 'pathlight_ingest_pending_rows')).toBeGreaterThanOrEqual(0)
    expect(sampleValue(samples, 'pathlight_ingest_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0)
    expect(sampleValue(samples, 'pathlight_webhook_outbox_pending_deliveries')).toBe(0)
    expect(sampleValue(samples, 'pathlight_webhook_delivery_failures_total', { reason: 'no_response' })).toBe(
      0,
    )
  })

  it('counts accepted events, and dropped requests by reason', async () => {
    const before = (await scrape()).samples
    const accepted = sampleValue(before, 'pathlight_ingest_events_accepted_total') ?? 0
    expect((await t.track(site, { pathname: '/pricing' })).statusCode).toBe(200)
    expect((await t.track(site, {}, { headers: { 'user-agent': GOOGLEBOT_UA } })).statusCode).toBe(403)

    const { samples } = await scrape()
    expect(sampleValue(samples, 'pathlight_ingest_events_accepted_total')).toBe(accepted + 1)
    expect(sampleValue(samples, 'pathlight_ingest_events_dropped_total', { reason: 'bot:crawler' })).toBe(1)
    // Acknowledged after the journal: the row may still wait for its events-store insert.
    await t.services.buffer.flush()
    const flushed = (await scrape()).samples
    expect(sampleValue(flushed, 'pathlight_ingest_pending_rows')).toBe(0)
    expect(sampleValue(flushed, 'pathlight_ingest_oldest_pending_age_seconds')).toBe(0)
    expect(sampleValue(flushed, 'pathlight_events_insert_duration_seconds_count')).toBeGreaterThanOrEqual(1)
  })

  it('times report queries by report, and counts requests by route pattern and status', async () => {
    const report = await t.app.inject({
      method: 'GET',
      url: `/api/sites/${site.siteId}/breakdown/pages`,
      headers: { cookie },
    })
    expect(report.statusCode).toBe(200)
    const { samples } = await scrape()
    expect(
      sampleValue(samples, 'pathlight_report_query_duration_seconds_count', { report: 'breakdown' }),
    ).toBe(1)
    const route = { route: '/api/sites/:siteId/breakdown/:name', method: 'GET' }
    expect(sampleValue(samples, 'pathlight_http_requests_total', { ...route, status_code: '200' })).toBe(1)
    expect(sampleValue(samples, 'pathlight_http_request_duration_seconds_count', route)).toBe(1)
    expect(samples.some((s) => s.labels.route?.includes(String(site.siteId)))).toBe(false)
    expect(
      sampleValue(samples, 'pathlight_http_requests_total', { route: '/api/track', status_code: '403' }),
    ).toBe(1)
  })
})

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await openTestInstance()
  })
  afterAll(() => t.close())

  it('does not exist: 404 like any unknown route, with or without a token', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-route' })
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual(unknown.json())
    }
    expect(t.app.routeList.some((route) => route.url === '/metrics')).toBe(false)
    expect(t.services.metrics).toBeUndefined()
  })
})
