/**
 * A user holds at most 50 API keys: the 51st create answers 409 with a message saying so, also when
 * the creates race each other; deleting a key makes room again. On SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_API_KEYS_PER_USER } from '../auth/api-keys.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

describe.each([
  ['SQLite', { postgres: false }],
  ['PostgreSQL', { postgres: true }],
])('the API key cap on %s', (_name, backends) => {
  let t: TestInstance
  beforeAll(async () => {
    t = await openTestInstance(backends)
  })
  afterAll(() => t.close())

  const create = (cookie: string, name = 'key') =>
    t.app.inject({ method: 'POST', url: '/api/user/api-keys', headers: { cookie }, payload: { name } })
  const count = async (cookie: string) =>
    (await t.app.inject({ url: '/api/user/api-keys', headers: { cookie } })).json().data.length

  it('refuses the 51st key with 409 naming the limit, and takes one again after a delete', async () => {
    const { cookie } = await t.signUp()
    const ids: string[] = []
    for (let i = 0; i < MAX_API_KEYS_PER_USER; i++) {
      const response = await create(cookie, `key ${i}`)
      expect(response.statusCode, response.body).toBe(201)
      ids.push(response.json().data.id)
    }
    const refused = await create(cookie)
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toEqual({
      success: false,
      error: 'At most 50 API keys per user: delete one you no longer use to create another',
    })
    expect(await count(cookie)).toBe(50)
    // Another user is not affected.
    expect((await create((await t.signUp()).cookie)).statusCode).toBe(201)
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/api-keys/${ids[0]}`,
      headers: { cookie },
    })
    expect(removed.statusCode).toBe(200)
    expect((await create(cookie)).statusCode).toBe(201)
    expect((await create(cookie)).statusCode).toBe(409)
  }, 60_000)

  it('never passes the cap when creates race: of 20 at once from 40 keys, 10 succeed', async () => {
    const { cookie } = await t.signUp()
    for (let i = 0; i < 40; i++) expect((await create(cookie)).statusCode).toBe(201)
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => create(cookie)))).map(
      (r) => r.statusCode,
    )
    expect(statuses.filter((s) => s === 201)).toHaveLength(10)
    expect(statuses.filter((s) => s === 409)).toHaveLength(10)
    expect(await count(cookie)).toBe(50)
  }, 60_000)
})
