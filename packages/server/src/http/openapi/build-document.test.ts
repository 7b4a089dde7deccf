import { component } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildOpenApiDocument, toOpenApiPath } from './build-document.js'
import { docRoutes } from './doc-routes.fixture.js'
import { json } from './route-doc.js'

const ok = json('OK', z.object({ success: z.literal(true) }))

describe('toOpenApiPath', () => {
  it('turns Fastify parameters and a trailing wildcard into templates', () => {
    expect(toOpenApiPath('/api/sites/:siteId/goals/:goalId')).toBe('/api/sites/{siteId}/goals/{goalId}')
    expect(toOpenApiPath('/api/auth/*')).toBe('/api/auth/{path}')
    expect(toOpenApiPath('/*')).toBe('/{path}')
    expect(toOpenApiPath('/api/health')).toBe('/api/health')
  })
})

describe('buildOpenApiDocument', () => {
  it('adds the errors of the access level, 400 for input, and a default error answer', () => {
    const document = buildOpenApiDocument(
      docRoutes({
        'POST /api/sites/:siteId/things': {
          summary: 'x',
          tag: 'Sites',
          access: 'admin',
          body: z.object({ name: z.string() }),
          responses: { 201: ok, 409: 'Taken' },
        },
      }),
    )
    const operation = document.paths['/api/sites/{siteId}/things']?.post
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '429',
      'default',
    ])
    expect(operation?.responses['409']?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    })
    expect(operation?.security).toEqual([{ apiKey: [] }, { session: [] }])
    expect(operation?.operationId).toBe('postSitesSiteIdThings')
    expect(operation?.parameters[0]).toMatchObject({
      name: 'siteId',
      in: 'path',
      schema: { type: 'integer' },
    })
  })

  it('turns a query schema into query parameters', () => {
    const document = buildOpenApiDocument(
      docRoutes({
        'GET /x': {
          summary: 'x',
          tag: 'Admin',
          access: 'instanceOwner',
          query: z.object({
            a: z.int().min(1).describe('ignored: global registry'),
            b: z.string().optional(),
          }),
          responses: { 200: ok },
        },
      }),
    )
    expect(document.paths['/x']?.get?.parameters).toEqual([
      { name: 'a', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
      { name: 'b', in: 'query', required: false, schema: { type: 'string' } },
    ])
  })

  it('documents the routes given, with only their tags', () => {
    const document = buildOpenApiDocument(
      docRoutes({
        'GET /api/health': { summary: 'x', tag: 'Health', access: 'public', responses: { 200: ok } },
      }),
    )
    expect(Object.keys(document.paths)).toEqual(['/api/health'])
    expect(document.tags.map((tag) => tag.name)).toEqual(['Health'])
  })

  it('refuses a route without a doc', () => {
    expect(() => buildOpenApiDocument([{ method: 'GET', url: '/x' }])).toThrow('GET /x has no doc')
  })

  it('refuses an undescribed path parameter', () => {
    expect(() =>
      buildOpenApiDocument(
        docRoutes({ 'GET /x/:id': { summary: 'x', tag: 'Admin', access: 'public', responses: { 200: ok } } }),
      ),
    ).toThrow('describe the path parameter id')
  })

  it('collects components referenced anywhere, once', () => {
    const widget = component('Widget', z.object({ id: z.string() }), 'A widget')
    const document = buildOpenApiDocument(
      docRoutes({
        'GET /a': { summary: 'a', tag: 'Admin', access: 'public', responses: { 200: json('A', widget) } },
        'GET /b': {
          summary: 'b',
          tag: 'Admin',
          access: 'public',
          responses: { 200: json('B', z.array(widget)) },
        },
      }),
    )
    expect(document.components.schemas.Widget).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
      description: 'A widget',
    })
    expect(Object.keys(document.components.schemas)).toEqual(['ErrorResponse', 'Widget'])
  })
})
