import { component } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildOpenApiDocument } from './build-document.js'
import { docRoutes } from './doc-routes.fixture.js'
import { createResponseValidator } from './response-validator.js'
import { json, media } from './route-doc.js'

const thing = component(
  'Thing',
  z.object({ id: z.int(), at: z.iso.datetime(), note: z.string().nullable() }),
  'A thing',
)
const document = buildOpenApiDocument(
  docRoutes({
    'GET /things/:id': {
      summary: 'A thing',
      tag: 'Sites',
      access: 'member',
      params: { id: 'The thing' },
      responses: { 200: json('The thing', z.object({ success: z.literal(true), data: thing })) },
    },
    'GET /page': {
      summary: 'A page',
      tag: 'Reference',
      access: 'public',
      responses: { 200: media('Page', 'text/*') },
    },
  }),
)
const validator = createResponseValidator(document)
const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
  method: 'GET',
  route: '/things/:id',
  status,
  contentType,
  payload: typeof body === 'string' ? body : JSON.stringify(body),
})
const good = { success: true, data: { id: 1, at: '2026-11-22T10:00:00.123Z', note: null } }

describe('createResponseValidator', () => {
  it('accepts an answer that matches its schema, as a string or a Buffer', () => {
    expect(validator.check(answer(200, good))).toBeNull()
    expect(validator.check({ ...answer(200, good), payload: Buffer.from(JSON.stringify(good)) })).toBeNull()
  })

  it('names missing and undocumented properties, wrong types and formats', () => {
    const problem = validator.check(
      answer(200, { success: true, data: { id: 1.5, at: '2026-11-22 10:00:00', extra: 1 } }),
    )
    expect(problem).toContain('GET /things/:id 200')
    expect(problem).toContain('/data must have required property')
    expect(problem).toContain('(extra)')
    expect(problem).toContain('/data/id must be integer')
    expect(problem).toContain('/data/at must match format "date-time"')
  })

  it('checks the error answers the access level implies, and others against default', () => {
    expect(validator.check(answer(404, { success: false, error: 'Not found' }))).toBeNull()
    expect(validator.check(answer(503, { success: false, error: 'Down', details: { a: 1 } }))).toBeNull()
    expect(validator.check(answer(404, { message: 'nope' }))).toContain("required property 'success'")
  })

  it('refuses media types the document does not list, and accepts wildcards', () => {
    expect(validator.check(answer(200, '<p>hi</p>', 'text/html'))).toContain('answered text/html')
    const page = { method: 'GET', route: '/page', status: 200, contentType: 'text/html', payload: '<p>' }
    expect(validator.check(page)).toBeNull()
  })

  it('skips HEAD, 204 and 304, empty bodies, streams and routes the document lacks', () => {
    expect(validator.check({ ...answer(200, good), method: 'HEAD' })).toBeNull()
    expect(validator.check(answer(304, ''))).toBeNull()
    expect(validator.check(answer(302, ''))).toBeNull()
    expect(
      validator.check({ ...answer(200, good), payload: { pipe: true }, contentType: undefined }),
    ).toBeNull()
    expect(validator.check(answer(200, ''))).toBeNull()
    expect(validator.check({ ...answer(200, good), route: '/unknown' })).toBeNull()
    expect(validator.check({ ...answer(200, good), route: undefined })).toBeNull()
  })
})
