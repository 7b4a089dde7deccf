import { analyticsQuery, endpoint } from '@pathlight/protocol'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { forbidden } from '../shared/errors.js'
import { errorHandler } from './error-handler.js'
import { route } from './route.js'

const thing = z.strictObject({ name: z.string({ error: 'name is required' }).min(1, 'name is required') })

const listThings = endpoint({
  method: 'GET',
  path: '/things/:siteId',
  summary: 'Things',
  tag: 'Goals',
  access: 'reader',
  params: z.object({ siteId: z.string() }),
  query: analyticsQuery,
  responses: { 200: { description: 'Things', schema: z.object({ page: z.number(), site: z.string() }) } },
})

const createThing = endpoint({
  method: 'POST',
  path: '/things/:siteId',
  summary: 'Create a thing',
  tag: 'Goals',
  access: 'admin',
  params: z.object({ siteId: z.string() }),
  body: thing,
  bodySubject: 'thing',
  responses: { 201: { description: 'Created', schema: z.object({ name: z.string() }) } },
})

let app: FastifyInstance

beforeAll(async () => {
  app = Fastify()
  app.decorateRequest('caller', null)
  app.setErrorHandler(errorHandler)
  app.addHook('preHandler', async (request) => {
    if (request.headers.authorization === 'admin')
      request.caller = { userId: 'u1', via: 'session', scope: 'full' }
  })
  route(app, listThings, async ({ params, query }) => ({ page: query.page ?? 1, site: params.siteId }))
  route(app, createThing, {
    // The access check comes first: its answer wins over an invalid body.
    resolve: async ({ params }) => {
      if (params.siteId === 'other') throw forbidden()
      return { site: params.siteId }
    },
    handle: async ({ body, resolved }) => ({ name: `${resolved.site}:${body.name}` }),
  })
  await app.ready()
})
afterAll(() => app.close())

describe('route', () => {
  it('hands the handler its parsed, typed input and answers with the success status', async () => {
    const list = await app.inject({ method: 'GET', url: '/things/s1?page=3' })
    expect([list.statusCode, list.json()]).toEqual([200, { page: 3, site: 's1' }])
    const created = await app.inject({
      method: 'POST',
      url: '/things/s1',
      headers: { authorization: 'admin' },
      payload: { name: 'x' },
    })
    expect([created.statusCode, created.json()]).toEqual([201, { name: 's1:x' }])
  })

  it('answers 400 naming the query parameter or the body field, as the hand-written routes do', async () => {
    const query = await app.inject({ method: 'GET', url: '/things/s1?page=0&limit=2' })
    expect([query.statusCode, query.json()]).toEqual([
      400,
      {
        success: false,
        error: 'Invalid page: page must be an integer from 1 to 100000',
        details: { fieldErrors: { page: ['page must be an integer from 1 to 100000'] }, formErrors: [] },
      },
    ])
    const body = await app.inject({
      method: 'POST',
      url: '/things/s1',
      headers: { authorization: 'admin' },
      payload: { name: '', extra: 1 },
    })
    expect(body.statusCode).toBe(400)
    expect(body.json().error).toBe('Invalid thing: name: name is required')
    expect(body.json().details.formErrors).toEqual(['Unrecognized key: "extra": extra'])
    const none = await app.inject({ method: 'POST', url: '/things/s1', headers: { authorization: 'admin' } })
    expect(none.json().error).toBe('Invalid thing: name: name is required')
  })

  it('answers 401 without a caller and the access check before parsing the body', async () => {
    const anonymous = await app.inject({ method: 'POST', url: '/things/s1', payload: { bad: true } })
    expect(anonymous.statusCode).toBe(401)
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/things/other',
      headers: { authorization: 'admin' },
      payload: { bad: true },
    })
    expect(elsewhere.statusCode).toBe(403)
  })

  it("registers the route at the contract's method and path", () => {
    expect(app.hasRoute({ method: 'GET', url: '/things/:siteId' })).toBe(true)
  })
})
