/**
 * Micro-benchmark of the two ways `POST /api/track` could validate its body, over the bodies the load
 * benchmark sends (`track-bodies.ts`, with and without `properties`), in one process and one run:
 * - `pipeline`: what the route runs, the ingest pipeline's `parsePayload` (the tracking schema, then
 *   the IP address check) on the JSON the route parsed;
 * - `contract`: the route's contract parser (`http/route.ts` `parseBody` with `trackEndpoint`, the
 *   same schema object) on that JSON, as the route would run it without `rawBody`;
 * - `ipCheck`: the pipeline's check of `ip_address` alone (`enrich/parse-ip.ts`), which `pipeline`
 *   runs after the schema and `contract` does not.
 * Each round runs every body through both, alternating which goes first; prints ns per body
 * (median of the rounds). `BENCH_ROUNDS` (default 200) sets the rounds.
 */
import path from 'node:path'
import { trackEndpoint } from '@pathlight/protocol'
import { parseBody } from '../../packages/server/src/http/route.js'
import { parseIp } from '../../packages/server/src/ingest/enrich/parse-ip.js'
import { parsePayload } from '../../packages/server/src/ingest/stages/parse-payload.js'
import { buildTrackBodies } from './track-bodies.js'

const rounds = Number(process.env.BENCH_ROUNDS ?? 200)
const logFile = path.resolve(
  import.meta.dirname,
  '../../packages/server/demo-data/elastic-examples-apache_logs.txt',
)

const validators = {
  pipeline: (body: unknown) => {
    const parsed = parsePayload({
      body,
      authorization: undefined,
      origin: undefined,
      referer: undefined,
      userAgent: undefined,
      ip: '127.0.0.1',
    })
    if (!parsed.ok) throw new Error('a benchmark body was refused')
  },
  contract: (body: unknown) => {
    parseBody(trackEndpoint, body)
  },
  ipCheck: (body: unknown) => {
    if (parseIp((body as { ip_address: string }).ip_address) === null)
      throw new Error('a benchmark IP was refused')
  },
}

/** Nanoseconds per body of one pass of `validate` over `bodies`. */
function pass(validate: (body: unknown) => void, bodies: readonly unknown[]): number {
  const start = process.hrtime.bigint()
  for (const body of bodies) validate(body)
  return Number(process.hrtime.bigint() - start) / bodies.length
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

for (const properties of [false, true]) {
  const bodies = buildTrackBodies(logFile, { siteId: 1, domain: 'example.com', properties }).map(
    (request) => JSON.parse(request.body) as unknown,
  )
  const times: Record<keyof typeof validators, number[]> = { pipeline: [], contract: [], ipCheck: [] }
  for (let round = 0; round < rounds; round++) {
    const order =
      round % 2 === 0
        ? (['pipeline', 'contract', 'ipCheck'] as const)
        : (['ipCheck', 'contract', 'pipeline'] as const)
    for (const name of order) times[name].push(pass(validators[name], bodies))
  }
  // The first tenth of the rounds warms the JIT up.
  const kept = (name: keyof typeof validators) => times[name].slice(Math.floor(rounds / 10))
  console.log(
    `${bodies.length} bodies${properties ? ' with properties' : ''}, ${rounds} rounds: ` +
      `pipeline ${median(kept('pipeline')).toFixed(0)} ns/body, contract ${median(kept('contract')).toFixed(0)} ns/body, ` +
      `ipCheck ${median(kept('ipCheck')).toFixed(0)} ns/body`,
  )
}
