/**
 * Session replay benchmark. Run from the repo root (after `npm run build`, as `npm start` serves):
 *
 *   npx tsx bench/replay/run.ts
 *
 * Prints (1) the recorder chunk's size (minified, gzip), (2) the bytes a scripted visit in Chromium
 * stores per minute of recording (typing, scrolling, clicks that add DOM, SPA navigations; bytes as the
 * replay endpoint's `meta.bytes`, i.e. batches as sent, mostly gzip), and (3) the batches per second
 * `POST /api/replay` sustains with autocannon (the whole recording as one gzip batch, a site
 * with `sessionReplay` on, its domain as Origin), beside a bare Fastify route that only reads the body.
 *
 * Environment: `BENCH_VISIT_SECONDS` (default 40), `BENCH_SECONDS` of load (default 10),
 * `BENCH_CONNECTIONS` (default 50), `BENCH_ENTRY` `build` (default) or `sources`. The last stdout line
 * is the figures as one JSON object.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import zlib from 'node:zlib'
import { buildTracker } from '@pathlight/tracker/build'
import autocannon from 'autocannon'
import Fastify from 'fastify'
import { seedInstance } from '../../packages/server/src/demo/seed-instance.js'
import { CHROME_UA, launchChromium, newChromeContext } from '../../packages/server/src/testing/browser.js'
import { spawnServer } from '../../packages/server/src/testing/start-server-process.js'

const visitSeconds = Number(process.env.BENCH_VISIT_SECONDS ?? 40)
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const entry = process.env.BENCH_ENTRY === 'sources' ? 'sources' : 'build'
const DOMAIN = 'bench.test'

const log = (message: string) => process.stderr.write(`[bench:replay] ${message}\n`)

async function chunkSize() {
  const { replay } = await buildTracker()
  return { minified: Buffer.byteLength(replay), gzip: zlib.gzipSync(replay, { level: 9 }).length }
}

/** Serves visit.html on http://bench.test:PORT with the site's snippet. */
async function startPageServer(scriptUrl: string, siteId: number) {
  const html = fs
    .readFileSync(path.join(import.meta.dirname, 'visit.html'), 'utf8')
    .replace('{{SCRIPT}}', `<script defer src="${scriptUrl}" data-site-id="${siteId}"></script>`)
  const server = http.createServer((request, response) => {
    if (request.url?.startsWith('/bye')) response.writeHead(200, { 'content-type': 'text/html' }).end('bye')
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://${DOMAIN}:${(server.address() as AddressInfo).port}` }
}

/** A scripted visit of `seconds`; returns when the page has been left (the last batch beaconed). */
async function visit(origin: string, seconds: number) {
  const browser = await launchChromium()
  try {
    const context = await newChromeContext(browser)
    const page = await context.newPage()
    await page.goto(`${origin}/shoes`)
    await page.waitForResponse((response) => response.url().includes('script-replay.js'))
    const end = Date.now() + seconds * 1000
    let round = 0
    while (Date.now() < end) {
      round++
      await page.fill('#search', '')
      await page.type('#search', `red shoes size ${round}`, { delay: 40 })
      await page.mouse.move(100 + ((round * 37) % 600), 200 + ((round * 53) % 300), { steps: 10 })
      await page.mouse.wheel(0, 400)
      await page.click('#add')
      await page.mouse.wheel(0, -400)
      if (round % 3 === 0) await page.evaluate(`go('/category-${round}', 'Category ${round}')`)
      await page.waitForTimeout(500)
    }
    await page.goto(`${origin}/bye`)
    await context.close()
  } finally {
    await browser.close()
  }
}

/** Requests per second of autocannon POSTing `body` to `url`'s /api/replay. */
async function load(baseUrl: string, body: Buffer, origin: string) {
  let recorded = 0
  let other = 0
  const result = await autocannon({
    url: `${baseUrl}/api/replay`,
    method: 'POST',
    connections,
    duration: loadSeconds,
    headers: { 'content-type': 'text/plain', origin, 'user-agent': CHROME_UA },
    body,
    setupClient: (client) => {
      client.on('body', (data: Buffer) => {
        if (data.includes('"recorded":true') || data.toString() === '{"ok":true}') recorded++
        else other++
      })
    },
  })
  return {
    reqPerSec: result.requests.average,
    p99Ms: result.latency.p99,
    recorded,
    other,
    non2xx: result.non2xx,
  }
}

async function baseline(body: Buffer) {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, raw, done) => done(null, raw))
  app.post('/api/replay', async () => ({ ok: true }))
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    return await load(url, body, 'http://example.com')
  } finally {
    await app.close()
  }
}

async function main() {
  const chunk = await chunkSize()
  log(`recorder chunk: ${chunk.minified} B minified, ${chunk.gzip} B gzip`)

  log(`starting the server (${entry})`)
  const server = await spawnServer({ entry, env: { LOG_LEVEL: 'info' } })
  try {
    const seeded = await seedInstance(server.baseUrl)
    const api = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie: seeded.cookie, origin: server.baseUrl, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`)
      return (await response.json()) as { data: unknown }
    }
    const site = (await api('POST', `/api/organizations/${seeded.organizationId}/sites`, {
      name: 'Bench',
      domain: DOMAIN,
    })) as unknown as { siteId: number }
    await api('PUT', `/api/sites/${site.siteId}/config`, { sessionReplay: true })
    const pages = await startPageServer(`${server.baseUrl}/api/script.js`, site.siteId)

    log(`recording a ${visitSeconds} s visit in Chromium`)
    await visit(pages.origin, visitSeconds)
    pages.server.close()
    const today = new Date().toISOString().slice(0, 10)
    let replay: { events: { timestamp: number }[]; meta: { durationMs: number; bytes: number } } | undefined
    for (let attempt = 0; attempt < 50 && !replay; attempt++) {
      const sessions = (
        await api('GET', `/api/sites/${site.siteId}/sessions?start_date=${today}&end_date=${today}`)
      ).data as { session_id: string; hasReplay: boolean }[]
      const recorded = sessions.find((row) => row.hasReplay)
      if (recorded) {
        replay = (await api('GET', `/api/sites/${site.siteId}/sessions/${recorded.session_id}/replay`))
          .data as typeof replay
      } else await new Promise((resolve) => setTimeout(resolve, 200))
    }
    if (!replay) throw new Error('no recording was stored')
    const minutes = replay.meta.durationMs / 60_000
    const perMinute = Math.round(replay.meta.bytes / minutes)
    log(
      `recording: ${replay.events.length} events, ${(replay.meta.durationMs / 1000).toFixed(1)} s, ` +
        `${replay.meta.bytes} B stored: ${perMinute} B per minute`,
    )

    // A realistic batch: the whole recording (full snapshot and what followed), gzipped as sent.
    const batch = zlib.gzipSync(
      JSON.stringify({ site_id: String(site.siteId), sequence: 1, events: replay.events }),
    )
    log(`load: ${batch.length} B gzip batch, ${connections} connections, ${loadSeconds} s`)
    const pathlight = await load(server.baseUrl, batch, `http://${DOMAIN}`)
    const bare = await baseline(batch)
    const figures = {
      benchmark: 'replay',
      chunk,
      visit: {
        seconds: replay.meta.durationMs / 1000,
        events: replay.events.length,
        bytes: replay.meta.bytes,
      },
      bytesPerMinute: perMinute,
      batchBytes: batch.length,
      pathlight,
      baseline: bare,
      ratio: Math.round((pathlight.reqPerSec / bare.reqPerSec) * 1000) / 1000,
    }
    process.stdout.write(
      `\nrecorder chunk            ${chunk.gzip} B gzip (${chunk.minified} B minified)\n` +
        `stored per minute         ${perMinute} B (${replay.meta.bytes} B over ${figures.visit.seconds.toFixed(1)} s)\n` +
        `POST /api/replay          ${pathlight.reqPerSec.toFixed(0)} batches/s of ${batch.length} B, ` +
        `p99 ${pathlight.p99Ms} ms (${pathlight.recorded} recorded, ${pathlight.other} other, ${pathlight.non2xx} non-2xx)\n` +
        `bare Fastify              ${bare.reqPerSec.toFixed(0)} req/s (ratio ${figures.ratio})\n`,
    )
    process.stdout.write(`${JSON.stringify(figures)}\n`)
  } finally {
    await server.stop()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench:replay] failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
