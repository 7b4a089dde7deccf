/**
 * Every route is registered from its endpoint contract (`http/route.ts`), and every contract has its
 * route. Surfaces not yet converted are listed in `notYetContracts`; converting one removes its routes
 * from the list, and the test fails while a listed route has a contract or no longer exists, so the
 * list only shrinks.
 */
import { endpoints } from '@pathlight/protocol'
import * as addresses from '@pathlight/protocol/addresses'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

/** Routes registered by hand, to be converted surface by surface (`METHOD /path` as Fastify has it). */
const notYetContracts: readonly string[] = [
  'GET /*',
  'GET /api/auth/*',
  'GET /api/docs',
  'GET /api/openapi.json',
  'POST /api/auth/*',
]

let t: TestInstance

beforeAll(async () => {
  t = await openTestInstance()
})
afterAll(() => t.close())

const key = (route: { method: string; url?: string; path?: string }) =>
  `${route.method} ${route.url ?? route.path}`

describe('route contracts', () => {
  it('registers every route from a contract, but those still listed', () => {
    const listed = new Set(notYetContracts)
    const withoutContract = t.app.routeList.filter((route) => !route.contract && !listed.has(key(route)))
    expect(withoutContract.map(key)).toEqual([])
  })

  it('registers a route for every contract, from that contract', () => {
    for (const contract of endpoints) {
      const routes = t.app.routeList.filter((route) => key(route) === key(contract))
      expect(routes, key(contract)).toHaveLength(1)
      expect(routes[0]?.contract, key(contract)).toBe(contract)
    }
  })

  it('lists only routes that exist and have no contract yet (the list shrinks)', () => {
    const registered = new Map(t.app.routeList.map((route) => [key(route), route]))
    const stale = notYetContracts.filter((listed) => {
      const route = registered.get(listed)
      return !route || route.contract !== undefined
    })
    expect(stale).toEqual([])
    expect(new Set(notYetContracts).size).toBe(notYetContracts.length)
  })

  it('declares each endpoint once, with a contract for every address', () => {
    const keys = endpoints.map(key)
    expect(new Set(keys).size).toBe(keys.length)
    const named = new Set(endpoints.map((contract) => contract.name))
    const listed = Object.values(addresses).filter((value) => typeof value === 'object')
    expect(listed.filter((address) => !named.has(address.name)).map(key)).toEqual([])
  })
})
