import { describe, expect, it } from 'vitest'
import { createApi } from './api'
import { ApiError } from './api-error'
import { createTransport, type FetchLike } from './client'

interface Call {
  url: string
  init: RequestInit
}

function fakeFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = []
  const fetchImpl: FetchLike = async (url, init) => {
    calls.push({ url, init })
    return respond({ url, init })
  }
  return { calls, fetchImpl }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('transport', () => {
  it('sends JSON with the cookie and returns the parsed body', async () => {
    const { calls, fetchImpl } = fakeFetch(() => json(201, { id: 'o1', name: 'Acme' }))
    const result = await createTransport(fetchImpl).request('POST', '/api/organizations', { name: 'Acme' })
    expect(result).toEqual({ id: 'o1', name: 'Acme' })
    expect(calls[0]?.init).toMatchObject({
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{"name":"Acme"}',
    })
  })

  it('sends no body and no content type without a body', async () => {
    const { calls, fetchImpl } = fakeFetch(() => json(200, { success: true }))
    await createTransport(fetchImpl).request('DELETE', '/api/user/api-keys/k1')
    expect(calls[0]?.init.body).toBeUndefined()
    expect(calls[0]?.init.headers).toEqual({ accept: 'application/json' })
  })

  it('throws the server error as an ApiError with its field errors', async () => {
    const { fetchImpl } = fakeFetch(() =>
      json(400, { success: false, error: 'Invalid site', details: { fieldErrors: { domain: ['bad'] } } }),
    )
    const error = await createTransport(fetchImpl)
      .request('POST', '/api/organizations/o1/sites', {})
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, message: 'Invalid site', fieldErrors: { domain: ['bad'] } })
  })

  it('reports an unreachable server as status 0', async () => {
    const fetchImpl: FetchLike = async () => {
      throw new TypeError('Failed to fetch')
    }
    await expect(createTransport(fetchImpl).request('GET', '/api/organizations')).rejects.toMatchObject({
      status: 0,
      message: expect.stringMatching(/Cannot reach/),
    })
  })

  it('handles empty and non-JSON answers', async () => {
    const empty = fakeFetch(() => new Response(null, { status: 204 }))
    expect(await createTransport(empty.fetchImpl).request('POST', '/x')).toBeUndefined()
    const html = fakeFetch(() => new Response('<h1>Bad gateway</h1>', { status: 502 }))
    await expect(createTransport(html.fetchImpl).request('GET', '/x')).rejects.toMatchObject({
      status: 502,
      message: 'The server had a problem (HTTP 502); try again shortly',
    })
  })

  it('signals an ended session on 401, except from the sign-in routes', async () => {
    let ended = 0
    const { fetchImpl } = fakeFetch(() => json(401, { success: false, error: 'Authentication required' }))
    const t = createTransport(fetchImpl, () => ended++)
    await expect(t.request('GET', '/api/organizations')).rejects.toBeInstanceOf(ApiError)
    expect(ended).toBe(1)
    await expect(t.request('POST', '/api/auth/sign-in/email', {})).rejects.toBeInstanceOf(ApiError)
    expect(ended).toBe(1)
  })
})

describe('api', () => {
  it('encodes path segments and unwraps {data}', async () => {
    const { calls, fetchImpl } = fakeFetch(() =>
      json(200, { success: true, data: { userId: 'u/1', role: 'admin' } }),
    )
    const member = await createApi(createTransport(fetchImpl)).changeRole('org 1', 'u/1', 'admin')
    expect(member).toEqual({ userId: 'u/1', role: 'admin' })
    expect(calls[0]?.url).toBe('/api/organizations/org%201/members/u%2F1')
    expect(calls[0]?.init.body).toBe('{"role":"admin"}')
  })

  it('reads lists and keys out of their envelopes', async () => {
    const answers: Record<string, unknown> = {
      '/api/sites/7/excluded-ips': { success: true, excludedIPs: ['10.0.0.0/8'] },
      '/api/sites/7/private-link-config': { success: true, data: { privateLinkKey: null } },
      '/api/sites/7/webhooks/w1/deliveries?page=2&limit=20': { data: [], meta: { total: 0, page: 2 } },
    }
    const { fetchImpl } = fakeFetch(({ url }) => json(200, answers[url]))
    const api = createApi(createTransport(fetchImpl))
    expect(await api.excludedIPs(7)).toEqual(['10.0.0.0/8'])
    expect(await api.privateLinkKey(7)).toBeNull()
    expect((await api.deliveries(7, 'w1', 2)).meta.page).toBe(2)
  })

  it('sends a key’s scope and expiry, and the account routes', async () => {
    const { calls, fetchImpl } = fakeFetch(({ url }) =>
      json(url === '/api/user/api-keys' ? 201 : 200, {
        success: true,
        data: url.endsWith('sessions') ? [] : {},
      }),
    )
    const api = createApi(createTransport(fetchImpl))
    await api.createApiKey({ name: 'backend', scope: 'track', expiresAt: '2027-01-31T00:00:00.000Z' })
    expect(await api.sessions()).toEqual([])
    await api.revokeSession('s/1')
    await api.changePassword('old password', 'new password')
    expect(calls.map((c) => [c.init.method, c.url, c.init.body])).toEqual([
      [
        'POST',
        '/api/user/api-keys',
        '{"name":"backend","scope":"track","expiresAt":"2027-01-31T00:00:00.000Z"}',
      ],
      ['GET', '/api/user/sessions', undefined],
      ['DELETE', '/api/user/sessions/s%2F1', undefined],
      ['PUT', '/api/user/password', '{"currentPassword":"old password","newPassword":"new password"}'],
    ])
  })
})
