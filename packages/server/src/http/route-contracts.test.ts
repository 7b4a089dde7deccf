/**
 * Every route is registered from its endpoint contract (`http/route.ts`), and every contract has its
 * route. The routes that legitimately have no contract of ours are exempt, each with its reason; the
 * test fails for any other route without a contract, for a contract without its route, and for an
 * exemption that names no route or a route with a contract.
 */
import { endpoints } from '@pathlight/protocol'
import * as addresses from '@pathlight/protocol/addresses'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

/** Routes without a contract of ours (`METHOD /path` as Fastify has it), each with why. */
const exempt: Readonly<Record<string, string>> = {
  'GET /*': "the dashboard's built files and its client-side routes: static pages, no API",
  'GET /api/auth/*': "Better Auth's handler: its endpoints and wire are the library's",
  'POST /api/auth/*': "Better Auth's handler: its endpoints and wire are the library's",
  'POST /api/mcp': "the MCP SDK's Streamable HTTP transport: JSON-RPC messages, the protocol's wire",
  'GET /api/mcp': "the MCP SDK's Streamable HTTP transport: 405, no stream of a stateless server",
  'DELETE /api/mcp': "the MCP SDK's Streamable HTTP transport: 405, no session of a stateless server",
  'GET /.well-known/oauth-protected-resource/api/mcp': 'OAuth discovery (RFC 9728): the standard document',
  'GET /.well-known/oauth-protected-resource': 'OAuth discovery (RFC 9728): the standard document',
  'GET /.well-known/oauth-authorization-server/api/auth':
    "OAuth discovery (RFC 8414): Better Auth's document",
  'GET /.well-known/oauth-authorization-server': "OAuth discovery (RFC 8414): Better Auth's document",
}

let t: TestInstance

beforeAll(async () => {
  t = await openTestInstance()
})
afterAll(() => t.close())

const key = (route: { method: string; url?: string; path?: string }) =>
  `${route.method} ${route.url ?? route.path}`

describe('route contracts', () => {
  it('registers every route from a contract, but the exempt ones', () => {
    const withoutContract = t.app.routeList.filter((route) => !route.contract && !(key(route) in exempt))
    expect(withoutContract.map(key)).toEqual([])
  })

  it('registers a route for every contract, from that contract', () => {
    for (const contract of endpoints) {
      const routes = t.app.routeList.filter((route) => key(route) === key(contract))
      expect(routes, key(contract)).toHaveLength(1)
      expect(routes[0]?.contract, key(contract)).toBe(contract)
    }
  })

  it('exempts only routes that exist and have no contract', () => {
    const registered = new Map(t.app.routeList.map((route) => [key(route), route]))
    const stale = Object.keys(exempt).filter((listed) => {
      const route = registered.get(listed)
      return !route || route.contract !== undefined
    })
    expect(stale).toEqual([])
  })

  it('declares each endpoint once, with a contract for every address', () => {
    const keys = endpoints.map(key)
    expect(new Set(keys).size).toBe(keys.length)
    const named = new Set(endpoints.map((contract) => contract.name))
    const listed = Object.values(addresses).filter((value) => typeof value === 'object')
    expect(listed.filter((address) => !named.has(address.name)).map(key)).toEqual([])
  })
})
