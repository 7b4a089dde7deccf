/**
 * Hostile bodies against the server as `npm start` runs it (`bin/pathlight.js serve` on the compiled
 * `dist/`, embedded chDB + SQLite, shipped defaults): the replay gzip bomb and deep nesting.
 *
 * Replay bomb: one visitor of a public site with replay on sends `BENCH_BOMBS` (default 20) gzip
 * batches of a few KB that inflate to 16 MiB each (the shape that once made one read return 335 MB),
 * then as many that inflate to just under the batch limit (`REPLAY_MAX_BATCH_BYTES`, 8 MiB); another
 * visitor's session holds two such batches (the baseline). The owner reads both back. Printed: the
 * answers by status, the bytes sent, each read's status, bytes and seconds, the server's RSS (VmRSS)
 * before the read, at its peak during it (sampled every 10 ms) and after, and the peak growth per MiB
 * answered for both sessions.
 *
 * Deep nesting: a tracking body whose `properties` nest 5,000 levels, a replay batch whose event data
 * nest 10,000, an import line whose `properties` nest 5,000, a goal body nesting 10,000 and a
 * `filters` parameter nesting 6,000. Printed: each answer's status and size, the server's RSS before
 * and after.
 *
 *   npm run build -w @pathlight/server && npx tsx bench/hostile/bodies.ts
 *
 * The last stdout line is the same figures as JSON; the exit code is 1 on any 5xx.
 */
import fs from 'node:fs'
import zlib from 'node:zlib'
import { seedInstance } from '../../packages/server/src/demo/seed-instance.js'
import { spawnServer } from '../../packages/server/src/testing/start-server-process.js'
import { positiveInteger } from '../positive-integer.js'

const BOMBS = positiveInteger('BENCH_BOMBS', 20)
const MiB = 1024 * 1024
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** A replay batch's JSON text, padded with spaces inside a string to `jsonBytes` bytes. */
function paddedBatch(siteId: number, sequence: number, jsonBytes: number): string {
  const head = `{"site_id":${siteId},"sequence":${sequence},"events":[{"type":3,"timestamp":${1000 + sequence},"data":{"source":1,"pad":"`
  const tail = '"}}]}'
  return `${head}${' '.repeat(jsonBytes - head.length - tail.length)}${tail}`
}
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
const nestedArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

const server = await spawnServer({ entry: 'build' })
const rssMiB = () => {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8')
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024
}
const statuses = new Map<number, number>()
const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)
try {
  const owner = await seedInstance(server.baseUrl, { email: 'owner@example.com', domain: 'a.example' })
  const configured = await fetch(`${server.baseUrl}/api/sites/${owner.siteId}/config`, {
    method: 'PUT',
    headers: { cookie: owner.cookie, origin: server.baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ sessionReplay: true }),
  })
  if (configured.status !== 200) throw new Error(`site config: ${configured.status}`)
  const visitor = { 'user-agent': BROWSER_UA, origin: 'https://a.example' }

  const postReplay = async (body: Uint8Array, from = visitor) => {
    const response = await fetch(`${server.baseUrl}/api/replay`, {
      method: 'POST',
      headers: { ...from, 'content-type': 'text/plain' },
      body: new Uint8Array(body),
    })
    const answer = (await response.json()) as { recorded?: boolean; error?: string }
    count(response.status)
    return { status: response.status, answer }
  }

  // Each visitor's pageview (its session is what the replay list shows). The small visitor's session
  // (two batches just under the limit) is the baseline of the read; the hostile visitor sends the bombs:
  // 16 MiB each (over the batch limit), then just under the limit until well past the session cap.
  const small = { ...visitor, 'user-agent': `${BROWSER_UA} Small/1` }
  for (const from of [visitor, small]) {
    const pageview = await fetch(`${server.baseUrl}/api/track`, {
      method: 'POST',
      headers: { ...from, 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: String(owner.siteId), pathname: '/' }),
    })
    if (pageview.status !== 200) throw new Error(`pageview: ${pageview.status}`)
  }
  for (let i = 0; i < 2; i++)
    await postReplay(zlib.gzipSync(paddedBatch(owner.siteId, i, 8 * MiB - 1024)), small)
  const byAnswer = new Map<string, number>()
  const tally = (key: string) => byAnswer.set(key, (byAnswer.get(key) ?? 0) + 1)
  let sent = 0
  let sequence = 0
  for (let i = 0; i < BOMBS; i++) {
    const body = zlib.gzipSync(paddedBatch(owner.siteId, sequence++, 16 * MiB))
    sent += body.length
    const { status, answer } = await postReplay(body)
    tally(`16 MiB: ${status}${answer.error ? ` ${answer.error}` : ''}`)
  }
  for (let i = 0; i < BOMBS; i++) {
    const body = zlib.gzipSync(paddedBatch(owner.siteId, sequence++, 8 * MiB - 1024))
    sent += body.length
    const { status, answer } = await postReplay(body)
    tally(`8 MiB: ${status} recorded:${String(answer.recorded)}`)
  }

  // The owner reads both sessions back (the session list names them; the smaller first in time).
  const today = new Date().toISOString().slice(0, 10)
  const listUrl = `${server.baseUrl}/api/sites/${owner.siteId}/sessions?start_date=${today}&end_date=${today}&has_replay=true`
  let listed: { data: { session_id: string }[] } = { data: [] }
  // Pageviews are acknowledged once journaled and readable once inserted (within about a second).
  for (let tries = 0; listed.data.length < 2 && tries < 50; tries++) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 200))
    listed = (await (await fetch(listUrl, { headers: { cookie: owner.cookie } })).json()) as typeof listed
  }
  const readBack = async (sessionId: string) => {
    const before = rssMiB()
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB())
    }, 10)
    const started = performance.now()
    const read = await fetch(`${server.baseUrl}/api/sites/${owner.siteId}/sessions/${sessionId}/replay`, {
      headers: { cookie: owner.cookie },
    })
    let bytes = 0
    for await (const chunk of read.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    count(read.status)
    return {
      status: read.status,
      bytes,
      seconds: Number(seconds.toFixed(2)),
      rssMiB: { before: Math.round(before), peak: Math.round(peak), after: Math.round(rssMiB()) },
      peakGrowthMiB: Math.round(peak - before),
    }
  }
  const [firstId, secondId] = listed.data.map((row) => row.session_id)
  const first = await readBack(firstId ?? '')
  const second = await readBack(secondId ?? '')
  const [baseline, capped] = first.bytes <= second.bytes ? [first, second] : [second, first]

  // Deep nesting, each family once.
  const rssBeforeDeep = rssMiB()
  const deep: Record<string, { status: number; bytes: number }> = {}
  const probe = async (name: string, url: string, init: RequestInit) => {
    const response = await fetch(`${server.baseUrl}${url}`, init)
    const text = await response.text()
    count(response.status)
    deep[name] = { status: response.status, bytes: text.length }
  }
  await probe('track properties x5,000', '/api/track', {
    method: 'POST',
    headers: { ...visitor, 'content-type': 'application/json' },
    body: `{"site_id":"${owner.siteId}","type":"custom_event","event_name":"x","properties":${nestedObject(5_000)}}`,
  })
  await probe('replay data x10,000', '/api/replay', {
    method: 'POST',
    headers: { ...visitor, 'content-type': 'text/plain' },
    body: `{"site_id":${owner.siteId},"sequence":0,"events":[{"type":3,"timestamp":1,"data":${nestedObject(10_000)}}]}`,
  })
  await probe('import line properties x5,000', `/api/sites/${owner.siteId}/import`, {
    method: 'POST',
    headers: { cookie: owner.cookie, origin: server.baseUrl, 'content-type': 'application/x-ndjson' },
    body: `{"timestamp":"2026-11-01T10:00:00Z","pathname":"/","properties":${nestedObject(5_000)}}\n`,
  })
  await probe('goal body x10,000', `/api/sites/${owner.siteId}/goals`, {
    method: 'POST',
    headers: { cookie: owner.cookie, origin: server.baseUrl, 'content-type': 'application/json' },
    body: `{"name":"g","goalType":"path","config":${nestedObject(10_000)}}`,
  })
  await probe('filters x6,000', `/api/sites/${owner.siteId}/stats?period=day&filters=${nestedArray(6_000)}`, {
    headers: { cookie: owner.cookie },
  })
  const rssAfterDeep = rssMiB()

  const fivexx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0)
  const figures = {
    bombs: BOMBS * 2,
    bombBytesSent: sent,
    bombAnswers: Object.fromEntries(byAnswer),
    readSmall: baseline,
    readCapped: capped,
    // Peak RSS growth per MiB answered: an answer held whole (or its parsed events) would be 1 or more.
    growthPerAnswerMiB: {
      small: Number((baseline.peakGrowthMiB / (baseline.bytes / MiB)).toFixed(2)),
      capped: Number((capped.peakGrowthMiB / (capped.bytes / MiB)).toFixed(2)),
    },
    deep,
    deepRssMiB: { before: Math.round(rssBeforeDeep), after: Math.round(rssAfterDeep) },
    fivexx,
  }
  console.log(
    `replay bombs: ${figures.bombs} batches, ${(sent / 1024).toFixed(0)} KiB sent`,
    figures.bombAnswers,
  )
  for (const [name, read] of [
    ['small session', baseline],
    ['capped session', capped],
  ] as const) {
    console.log(
      `replay read, ${name}: ${read.status}, ${(read.bytes / MiB).toFixed(1)} MiB in ${read.seconds} s; server RSS ` +
        `${read.rssMiB.before} MiB before, ${read.rssMiB.peak} peak (+${read.peakGrowthMiB}), ${read.rssMiB.after} after`,
    )
  }
  console.log(
    `peak RSS growth per MiB answered: small ${figures.growthPerAnswerMiB.small}, capped ` +
      `${figures.growthPerAnswerMiB.capped} (holding the answer whole would be 1 or more)`,
  )
  for (const [name, answer] of Object.entries(deep)) {
    console.log(`deep nesting, ${name}: ${answer.status} (${answer.bytes} bytes)`)
  }
  console.log(
    `deep nesting: server RSS ${figures.deepRssMiB.before} MiB before, ${figures.deepRssMiB.after} after`,
  )
  console.log(`5xx: ${fivexx} (target 0)`)
  console.log(JSON.stringify(figures))
  if (fivexx > 0) process.exitCode = 1
} finally {
  await server.stop()
}
