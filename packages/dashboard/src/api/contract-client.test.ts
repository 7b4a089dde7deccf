import * as endpoints from '@pathlight/protocol/addresses'
import { describe, expect, it } from 'vitest'
import type { Transport } from './client'
import { createClient } from './contract-client'

/** A transport that records each request and answers `answer`. */
function recording(answer: unknown = { success: true }) {
  const calls: { method: string; path: string; body: unknown; headers?: Record<string, string> }[] = []
  const transport: Transport = {
    request: async <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      calls.push({ method, path, body, headers })
      return answer as T
    },
  }
  return { calls, call: createClient(transport) }
}

describe('client', () => {
  it('takes method and path from the address, encoding path parameters', async () => {
    const { calls, call } = recording()
    await call(endpoints.deleteGoal, { params: { siteId: 7, goalId: 'a/b' } })
    expect(calls).toEqual([
      { method: 'DELETE', path: '/api/sites/7/goals/a%2Fb', body: undefined, headers: undefined },
    ])
  })

  it('sends the query as text, leaving undefined values out, and the body and headers as given', async () => {
    const { calls, call } = recording({ data: [], meta: {} })
    await call(
      endpoints.listGoals,
      { params: { siteId: 1 }, query: { start_date: '2026-01-01', filters: undefined, limit: 1000 } },
      { headers: { 'x-private-key': 'k' } },
    )
    await call(endpoints.createGoal, {
      params: { siteId: 1 },
      body: { name: 'Pricing', goalType: 'path', config: { pathPattern: '/pricing' } },
    })
    expect(calls[0]).toEqual({
      method: 'GET',
      path: '/api/sites/1/goals?start_date=2026-01-01&limit=1000',
      body: undefined,
      headers: { 'x-private-key': 'k' },
    })
    expect(calls[1]?.body).toEqual({ name: 'Pricing', goalType: 'path', config: { pathPattern: '/pricing' } })
  })
})
