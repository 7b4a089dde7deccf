/** `GET /api/instance` through `buildApp().inject()` on a real SQLite metadata store and chDB. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

let t: TestInstance
beforeAll(async () => {
  t = await openTestInstance()
})
afterAll(() => t?.close())

const setup = async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/instance' })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

it('says a fresh instance has no owner, and has one once the first account signs up', async () => {
  expect(await setup()).toEqual({ success: true, data: { hasOwner: false } })
  await t.signUp()
  expect(await setup()).toEqual({ success: true, data: { hasOwner: true } })
  // A second account changes nothing.
  await t.signUp()
  expect(await setup()).toEqual({ success: true, data: { hasOwner: true } })
})
