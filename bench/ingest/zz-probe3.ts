import { trackEndpoint } from '@pathlight/protocol'
import Fastify from 'fastify'
import { route, routeDoc } from '../../packages/server/src/http/route.js'
const variant = process.argv[2]
const i = Fastify()
i.removeAllContentTypeParsers()
i.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 65536 }, (_r, b, d) => d(null, b))
const h = async (_r: unknown, reply: any) => reply.code(200).send({ success: true })
if (variant === 'contract') route(i, trackEndpoint, async ({ reply }) => reply.code(200).send({ success: true }), { bodyLimit: 65536 })
else if (variant === 'doc') i.route({ method: 'POST', url: '/api/track', bodyLimit: 65536, config: { doc: routeDoc(trackEndpoint) } as never, handler: h })
else if (variant === 'contractcfg') i.route({ method: 'POST', url: '/api/track', bodyLimit: 65536, config: { contract: trackEndpoint } as never, handler: h })
else i.post('/api/track', { bodyLimit: 65536 }, h)
await i.ready()
const run = async (n: number) => { for (let k = 0; k < n; k++) await i.inject({ method: 'POST', url: '/api/track', headers: { 'content-type': 'text/plain' }, payload: '{"site_id":"1","pathname":"/"}' }) }
await run(5000)
const s = process.cpuUsage()
await run(30000)
const u = process.cpuUsage(s)
console.log(variant, ((u.user + u.system) / 30000).toFixed(2), 'cpu µs/request')
