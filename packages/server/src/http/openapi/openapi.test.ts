/**
 * The OpenAPI document against the running app: every registered route is documented (and nothing
 * else: docs sit on the routes), the document is well formed, both routes serve it, and the test instance validates answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serviceDocument } from '../../testing/service-document.js'
import { openTestInstance, type TestInstance } from '../../testing/test-instance.js'
import { type OpenApiDocument, routeKey, toOpenApiPath } from './build-document.js'
import { REFERENCE_CACHE_CONTROL } from './openapi-routes.js'

let t: TestInstance
let served: OpenApiDocument

beforeAll(async () => {
  t = await openTestInstance()
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
  expect(response.statusCode).toBe(200)
  served = response.json() as OpenApiDocument
})
afterAll(() => t.close())

/** Every `$ref` in a value. */
function refsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsOf)
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [child] : refsOf(child),
  )
}

describe('completeness', () => {
  it('has a doc for every registered route', () => {
    const missing = t.app.routeList.filter((route) => !route.doc).map(routeKey)
    expect(missing.join('\n'), 'give these routes a config.doc where they are registered').toBe('')
  })

  it('serves exactly the registered routes, at their OpenAPI paths', () => {
    const documented = Object.entries(served.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort()
    const registered = t.app.routeList.map((r) => `${r.method} ${toOpenApiPath(r.url)}`).sort()
    expect(documented).toEqual(registered)
    for (const [path, operations] of Object.entries(served.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const [routeMethod = '', url = ''] = operation['x-route'].split(' ')
        expect(routeMethod.toLowerCase()).toBe(method)
        expect(toOpenApiPath(url)).toBe(path)
      }
    }
  })
})

const document = await serviceDocument()

describe('the document', () => {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  )

  it('is OpenAPI 3.1 with info, the DB-IP credit, tags and security schemes', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.title).toBe('Pathlight API')
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(document.info.description).toContain('DB-IP (https://db-ip.com)')
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'metricsToken',
      'privateLink',
      'session',
    ])
    expect(document.components.securitySchemes.privateLink).toMatchObject({
      in: 'header',
      name: 'X-Private-Key',
    })
  })

  it('describes every operation: summary, one declared tag, who, unique operationId, responses', () => {
    const tagNames = new Set(document.tags.map((tag) => tag.name))
    const ids = operations.map(({ operation }) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const { operation } of operations) {
      expect(operation.summary, operation['x-route']).not.toBe('')
      expect(operation.tags).toHaveLength(1)
      expect(tagNames.has(operation.tags[0] ?? '')).toBe(true)
      expect(operation['x-who']).not.toBe('')
      expect(operation.responses.default, operation['x-route']).toBeDefined()
      for (const response of Object.values(operation.responses)) expect(response.description).not.toBe('')
    }
  })

  it('declares each path template parameter once, as required', () => {
    for (const { path, operation } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
      const declared = operation.parameters.filter((p) => p.in === 'path')
      expect(
        declared.map((p) => p.name),
        operation['x-route'],
      ).toEqual(inPath)
      for (const parameter of declared) {
        expect(parameter.required).toBe(true)
        expect(parameter.description).toBeTruthy()
      }
    }
  })

  it('names only known security schemes', () => {
    for (const { operation } of operations) {
      for (const requirement of operation.security) {
        for (const name of Object.keys(requirement))
          expect(document.components.securitySchemes).toHaveProperty(name)
      }
    }
  })

  it('resolves every $ref to a component, and uses every component', () => {
    const refs = new Set(refsOf(document))
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//)
      expect(document.components.schemas).toHaveProperty(ref.slice('#/components/schemas/'.length))
    }
    for (const name of Object.keys(document.components.schemas)) {
      expect(refs.has(`#/components/schemas/${name}`), name).toBe(true)
    }
  })

  it('keeps the v1 rows whole where the dashboard routes may leave counts out (`metrics`)', () => {
    const required = (name: string) =>
      [...((document.components.schemas[name] as { required?: string[] }).required ?? [])].sort()
    expect(required('EventName')).toEqual(['events', 'name', 'sessions', 'visitors'])
    expect(required('EventNameCounts')).toEqual(['events', 'name'])
    expect(required('SeriesPoint')).toEqual(['pageviews', 'sessions', 'time', 'visitors'])
    expect(required('SeriesCounts')).toEqual(['time'])
  })

  it('has the request bodies of the zod schemas the routes validate with', () => {
    const body = (method: string, url: string) =>
      document.paths[toOpenApiPath(url)]?.[method]?.requestBody?.content
    expect(body('post', '/api/track')?.['text/plain']?.schema).toMatchObject({ required: ['site_id'] })
    expect(body('put', '/api/sites/:siteId/config')?.['application/json']?.schema).toMatchObject({
      additionalProperties: false,
      properties: { excludedIPs: { type: 'array', maxItems: 500 } },
    })
    expect(
      body('post', '/api/organizations/:organizationId/sites')?.['application/json']?.schema,
    ).toMatchObject({
      required: ['name', 'domain'],
    })
  })
})

describe('the routes', () => {
  it('serve the document with a cache header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.headers['cache-control']).toBe(REFERENCE_CACHE_CONTROL)
    expect(served.info.title).toBe('Pathlight API')
  })

  it('serve a self-contained reference page with an anchor per route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['cache-control']).toBe(REFERENCE_CACHE_CONTROL)
    expect(response.headers['content-security-policy']).toContain("default-src 'none'")
    const html = response.body
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\(/i)
    for (const operations of Object.values(served.paths)) {
      for (const operation of Object.values(operations)) {
        expect(html).toContain(`id="${operation.operationId}"`)
        expect(html).toContain(`href="#${operation.operationId}"`)
      }
    }
    expect(html).toContain('id="schema-Site"')
    expect(html).toContain('href="#schema-ErrorResponse"')
  })
})

describe('response validation in tests', () => {
  it('checks every answer of the test instance against the document', async () => {
    const before = t.responseChecks.checked
    const { cookie, site, apiKey } = await t.seed()
    const pages = [
      `/api/sites/${site.siteId}`,
      `/api/sites/${site.siteId}/goals`,
      `/api/sites/${site.siteId}/error-names`,
      '/api/organizations',
      '/api/user/api-keys',
      '/api/admin/ingest-stats',
    ]
    for (const url of pages) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } })
      expect(response.statusCode, response.body).toBe(200)
    }
    const v1 = await t.app.inject({
      method: 'GET',
      url: '/api/v1/sites',
      headers: { authorization: `Bearer ${apiKey}` },
    })
    expect(v1.statusCode, v1.body).toBe(200)
    expect(t.responseChecks.checked - before).toBeGreaterThanOrEqual(pages.length + 5)
    expect(t.responseChecks.mismatches).toEqual([])
  })
})
