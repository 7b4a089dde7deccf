/**
 * What registering `POST /api/track` from its contract (`http/route.ts` `route()`) adds per request:
 * the handler Fastify calls, as `route()` registers it and as a hand-registered route's handler, both
 * answering through the reply at once, called directly with stand-ins for the request and the reply
 * (no HTTP, no Fastify: only the wrapper's own work). Prints ns per call of 5 rounds of
 * `BENCH_CALLS` (default 1,000,000) calls each, alternating.
 */
import { trackEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { route } from '../../packages/server/src/http/route.js'

type Handler = (request: unknown, reply: unknown) => Promise<unknown>

const calls = Number(process.env.BENCH_CALLS ?? 1_000_000)
let fromContract: Handler | undefined
const registrar = { route: (options: { handler: Handler }) => (fromContract = options.handler) }
route(registrar as unknown as FastifyInstance, trackEndpoint, async ({ reply }) => reply)
if (!fromContract) throw new Error('route() registered no handler')
const byHand: Handler = async (_request, reply) => reply

const reply = { code: () => reply }
const request = { headers: { 'content-type': 'text/plain' }, body: '{"site_id":"1"}', params: {}, query: {} }

/** ns per call of `handler`. */
async function time(handler: Handler): Promise<number> {
  const start = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) await handler(request, reply)
  return Number(process.hrtime.bigint() - start) / calls
}

for (let round = 0; round < 5; round++) {
  const hand = await time(byHand)
  const contract = await time(fromContract)
  console.log(
    `round ${round + 1}: by hand ${hand.toFixed(0)} ns/call, from the contract ${contract.toFixed(0)} ns/call`,
  )
}
