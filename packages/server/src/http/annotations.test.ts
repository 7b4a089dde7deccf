/**
 * Annotations through the real app, on SQLite and on PostgreSQL: write, list over days, change,
 * delete, who may do what (readers list, admins write, v1 keys of members list), the 400s naming the
 * field, the audit trail, and the report batch's `annotations` part. Lists are checked against the
 * annotations the test wrote (kept in `written`), filtered here by day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../sites/site.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

interface Written {
  id: number
  date: string
  text: string
}

describe.each([
  ['SQLite', false],
  ['PostgreSQL', true],
])('annotations on %s', (_name, postgres) => {
  let t: TestInstance
  let owner: { cookie: string; userId: string }
  let site: Site
  let apiKey: string
  const written: Written[] = []

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const url = (path = '', siteId = site.siteId) => `/api/sites/${siteId}/annotations${path}`
  const as = (cookie: string) => ({ cookie })
  const write = async (date: string, text: string) => {
    const response = await call('POST', url(), as(owner.cookie), { date, text })
    expect(response.statusCode, response.body).toBe(201)
    const { data } = response.json()
    expect(data).toMatchObject({ date, text: text.trim() })
    written.push({ id: data.id, date: data.date, text: data.text })
    return data.id as number
  }
  /** The independent expectation: the written annotations on the days, by day then by id. */
  const expected = (start = '0000-00-00', end = '9999-99-99') =>
    written
      .filter((a) => a.date >= start && a.date <= end)
      .sort((a, b) => (a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1))
  const listed = async (query: string, headers: Record<string, string> = as(owner.cookie)) => {
    const response = await call('GET', `${url()}${query}`, headers)
    expect(response.statusCode, response.body).toBe(200)
    const body = response.json()
    expect(body.meta).toEqual({ total: body.data.length })
    return body.data.map(({ id, date, text }: Written) => ({ id, date, text }))
  }

  beforeAll(async () => {
    t = await openTestInstance({ postgres })
    const seeded = await t.seed()
    owner = { cookie: seeded.cookie, userId: seeded.userId }
    site = seeded.site
    apiKey = seeded.apiKey
    await write('2024-03-01', 'Launch')
    await write('2024-02-29', 'Leap day outage')
    await write('2024-03-01', '  Second note on launch day  ')
    await write('2024-03-31', 'Month end')
  }, 60_000)
  afterAll(() => t.close())

  it('lists by day, over the days asked for', async () => {
    expect(await listed('')).toEqual(expected())
    expect(await listed('?start_date=2024-03-01')).toEqual(expected('2024-03-01'))
    expect(await listed('?end_date=2024-03-01')).toEqual(expected(undefined, '2024-03-01'))
    expect(await listed('?start_date=2024-02-29&end_date=2024-02-29')).toEqual(
      expected('2024-02-29', '2024-02-29'),
    )
    expect(await listed('?start_date=2025-01-01')).toEqual([])
    // The text is kept trimmed.
    expect(written[2]?.text).toBe('Second note on launch day')
  })

  it('changes the day, the text or both, and deletes', async () => {
    const id = await write('2024-01-15', 'Draft')
    const changed = await call('PATCH', url(`/${id}`), as(owner.cookie), { text: 'Pricing change' })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json().data).toMatchObject({ id, date: '2024-01-15', text: 'Pricing change' })
    const moved = await call('PATCH', url(`/${id}`), as(owner.cookie), { date: '2024-01-16' })
    expect(moved.json().data).toMatchObject({ id, date: '2024-01-16', text: 'Pricing change' })
    expect(await listed('?start_date=2024-01-16&end_date=2024-01-16')).toEqual([
      { id, date: '2024-01-16', text: 'Pricing change' },
    ])
    const deleted = await call('DELETE', url(`/${id}`), as(owner.cookie))
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.json()).toEqual({ success: true })
    written.splice(
      written.findIndex((a) => a.id === id),
      1,
    )
    expect(await listed('')).toEqual(expected())
    expect((await call('DELETE', url(`/${id}`), as(owner.cookie))).statusCode).toBe(404)
    expect((await call('PATCH', url(`/${id}`), as(owner.cookie), { text: 'x' })).statusCode).toBe(404)
    expect((await call('PATCH', url('/not-an-id'), as(owner.cookie), { text: 'x' })).statusCode).toBe(404)
  })

  it('answers 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ text: 'x' }, 'date'],
      [{ date: '2024-02-30', text: 'x' }, 'date'],
      [{ date: '24-01-01', text: 'x' }, 'date'],
      [{ date: '2024-01-01' }, 'text'],
      [{ date: '2024-01-01', text: '   ' }, 'text'],
      [{ date: '2024-01-01', text: 'x'.repeat(501) }, 'text'],
      [{ date: '2024-01-01', text: 'a\u0000b' }, 'text'],
      [{ date: '2024-01-01', text: 5 }, 'text'],
    ]
    for (const [body, field] of cases) {
      const response = await call('POST', url(), as(owner.cookie), body)
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json().error).toMatch(new RegExp(`^Invalid annotation: ${field}: `))
    }
    // 500 characters is the most.
    await write('2024-04-01', 'y'.repeat(500))
    const id = written[0]?.id as number
    // An empty change changes nothing (and is not audited).
    const empty = await call('PATCH', url(`/${id}`), as(owner.cookie), {})
    expect(empty.statusCode, empty.body).toBe(200)
    expect(empty.json().data).toMatchObject(written[0] as Written)
    const unknown = await call('PATCH', url(`/${id}`), as(owner.cookie), { date: '2024-03-02', color: 'red' })
    expect(unknown.statusCode).toBe(400)
    const badQuery = await call('GET', `${url()}?start_date=yesterday`, as(owner.cookie))
    expect(badQuery.statusCode).toBe(400)
    expect(badQuery.json().error).toMatch(/^Invalid start_date: /)
    const backwards = await call(
      'GET',
      `${url()}?start_date=2024-03-02&end_date=2024-03-01`,
      as(owner.cookie),
    )
    expect(backwards.statusCode).toBe(400)
    expect(backwards.json().error).toBe('Invalid end_date: end_date must not be before start_date')
  })

  it('readers list, admins write; another site answers 404', async () => {
    const member = await t.signUp()
    await t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: site.organizationId,
        user_id: member.userId,
        role: 'member',
        created_at: new Date().toISOString(),
      })
      .execute()
    expect(await listed('', as(member.cookie))).toEqual(expected())
    const body = { date: '2024-05-01', text: 'not mine to write' }
    expect((await call('POST', url(), as(member.cookie), body)).statusCode).toBe(403)
    const id = written[0]?.id as number
    expect((await call('PATCH', url(`/${id}`), as(member.cookie), { text: 'x' })).statusCode).toBe(403)
    expect((await call('DELETE', url(`/${id}`), as(member.cookie))).statusCode).toBe(403)

    // Without credentials: 401 on a private site, a list on a public one, never a write.
    expect((await call('GET', url(), {})).statusCode).toBe(401)
    expect((await call('POST', url(), {}, body)).statusCode).toBe(401)
    await call('PUT', `/api/sites/${site.siteId}/config`, as(owner.cookie), { public: true })
    expect(await listed('', {})).toEqual(expected())
    expect((await call('POST', url(), {}, body)).statusCode).toBe(401)
    await call('PUT', `/api/sites/${site.siteId}/config`, as(owner.cookie), { public: false })

    // Another organization's owner reaches neither the list nor an annotation by its id.
    const stranger = await t.signUp()
    const theirs = await t.createSite(stranger.cookie, await t.createOrganization(stranger.cookie))
    expect((await call('GET', url(), as(stranger.cookie))).statusCode).toBe(404)
    expect(
      (await call('PATCH', url(`/${id}`, theirs.siteId), as(stranger.cookie), { text: 'x' })).statusCode,
    ).toBe(404)
    expect((await call('DELETE', url(`/${id}`, theirs.siteId), as(stranger.cookie))).statusCode).toBe(404)
    expect(await listed('')).toEqual(expected())
  })

  it('v1 lists them for a key of a member', async () => {
    const headers = { authorization: `Bearer ${apiKey}` }
    const response = await call(
      'GET',
      `/api/v1/sites/${site.siteId}/annotations?start_date=2024-03-01`,
      headers,
    )
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data.map(({ id, date, text }: Written) => ({ id, date, text }))).toEqual(
      expected('2024-03-01'),
    )
    const stranger = await t.signUp()
    const theirs = await t.createApiKey(stranger.cookie)
    const refused = await call('GET', `/api/v1/sites/${site.siteId}/annotations`, {
      authorization: `Bearer ${theirs}`,
    })
    expect(refused.statusCode).toBe(404)
  })

  it('the report batch lists those on the days of its range', async () => {
    const response = await call(
      'POST',
      `/api/sites/${site.siteId}/reports?start_date=2024-02-29&end_date=2024-03-01`,
      as(owner.cookie),
      { reports: [{ name: 'annotations' }] },
    )
    expect(response.statusCode, response.body).toBe(200)
    const part = response.json().data.annotations
    expect(part.data.map(({ id, date, text }: Written) => ({ id, date, text }))).toEqual(
      expected('2024-02-29', '2024-03-01'),
    )
  })

  it('audits every write with its actor', async () => {
    const audit = await call('GET', `/api/organizations/${site.organizationId}/audit-log`, as(owner.cookie))
    expect(audit.statusCode, audit.body).toBe(200)
    const entries = (audit.json().data as { action: string; actorUserId: string; siteId: number }[]).filter(
      (e) => e.action.startsWith('annotation.'),
    )
    const count = (action: string) => entries.filter((e) => e.action === action).length
    // Four in beforeAll, one changed twice and deleted, one of 500 characters.
    expect(count('annotation.created')).toBe(6)
    expect(count('annotation.updated')).toBe(2)
    expect(count('annotation.deleted')).toBe(1)
    expect(entries.every((e) => e.actorUserId === owner.userId && e.siteId === site.siteId)).toBe(true)
  })
})
