/**
 * DISABLE_SIGNUP closes sign-up once the owner exists; health turns 503 when a store stops answering.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

let t: TestInstance
beforeAll(async () => {
  t = await openTestInstance({ env: { DISABLE_SIGNUP: 'true' } })
})
afterAll(() => t.close())

it('with DISABLE_SIGNUP the first account signs up and later ones are refused', async () => {
  await t.signUp('owner@example.com')
  const second = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    payload: { name: 'Eve', email: 'eve@example.com', password: 'correct horse battery staple' },
  })
  expect(second.statusCode).toBe(403)
  expect(second.json()).toMatchObject({ message: 'Sign-up is disabled on this instance' })
})

it('health answers 503 naming the store that does not answer', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
  await t.services.events.close()
  const response = await t.app.inject({ method: 'GET', url: '/api/health' })
  expect(response.statusCode).toBe(503)
  expect(response.json()).toEqual({
    status: 'unavailable',
    metadata: { kind: 'sqlite', ok: true },
    events: { kind: 'chdb', ok: false },
    ingest: { pendingEvents: 0, oldestPendingAgeSeconds: 0, lastInsertFailed: false },
    reasons: ['events store: does not answer within 2 s'],
  })
})
