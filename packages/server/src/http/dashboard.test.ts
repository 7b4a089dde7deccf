/**
 * Serving the dashboard: a fake build in a temporary directory behind a bare Fastify app with the
 * service's not-found handler, then the whole app (whatever the real build's state) for the JSON 404
 * of unknown API paths.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'
import { ASSET_CACHE_CONTROL, DASHBOARD_CSP, dashboardRoutes, PAGE_CACHE_CONTROL } from './dashboard.js'
import { errorHandler } from './error-handler.js'

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script>'
const SCRIPT = `console.log(${JSON.stringify('pathlight '.repeat(200))})`

async function appServing(root: string): Promise<FastifyInstance> {
  const app = Fastify()
  app.setErrorHandler(errorHandler)
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ success: false, error: 'Not found' }))
  app.get('/api/health', async () => ({ status: 'ok' }))
  await app.register(dashboardRoutes, { root })
  return app
}

describe('dashboard serving with a build', () => {
  let root: string
  let app: FastifyInstance

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-dashboard-'))
    fs.mkdirSync(path.join(root, 'assets'))
    fs.writeFileSync(path.join(root, 'index.html'), INDEX)
    fs.writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), SCRIPT)
    fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(SCRIPT))
    fs.writeFileSync(path.join(os.tmpdir(), 'pathlight-outside.txt'), 'secret')
    app = await appServing(root)
  })
  afterAll(async () => {
    await app.close()
    fs.rmSync(root, { recursive: true, force: true })
  })

  it('serves index.html at / with no-cache and a strict CSP', async () => {
    const response = await app.inject({ method: 'GET', url: '/' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL)
    expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP)
    expect(response.headers['x-frame-options']).toBe('DENY')
    expect(response.body).toBe(INDEX)
  })

  it('answers client-side routes (with a query) with index.html', async () => {
    for (const url of ['/sites/3/settings', '/sign-in?next=%2Fsites%2F3', '/organizations/abc/members/']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(200)
      expect(response.body, url).toBe(INDEX)
      expect(response.headers['cache-control'], url).toBe(PAGE_CACHE_CONTROL)
    }
  })

  it('serves hashed assets as immutable, brotli when accepted', async () => {
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/)
    expect(plain.headers['cache-control']).toBe(ASSET_CACHE_CONTROL)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(SCRIPT)

    const br = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.headers['cache-control']).toBe(ASSET_CACHE_CONTROL)
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT)
  })

  it('revalidates other files of the build', async () => {
    const response = await app.inject({ method: 'GET', url: '/favicon.svg' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(response.headers['cache-control']).toBe(PAGE_CACHE_CONTROL)
    const again = await app.inject({
      method: 'GET',
      url: '/favicon.svg',
      headers: { 'if-none-match': String(response.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
  })

  it('answers HEAD like GET without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/sites/1' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toBe('')
  })

  it('keeps the JSON 404 for unknown API paths and other methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['GET', '/api'],
      ['GET', '/api/sites/1/unknown?x=1'],
      ['GET', '/metrics'],
      ['POST', '/sites/1'],
      ['DELETE', '/'],
    ] as const) {
      const response = await app.inject({ method, url })
      expect(response.statusCode, `${method} ${url}`).toBe(404)
      expect(response.json(), `${method} ${url}`).toEqual({ success: false, error: 'Not found' })
    }
    expect((await app.inject({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'ok' })
  })

  it('answers 404, never index.html, for missing files', async () => {
    for (const url of ['/assets/index-old999.js', '/assets/nested/path', '/robots.txt', '/sites/1/app.js']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(404)
      expect(response.headers['content-type'], url).toMatch(/^application\/json/)
    }
  })

  it('never serves files outside the build', async () => {
    for (const url of [
      '/../pathlight-outside.txt',
      '/..%2fpathlight-outside.txt',
      '/%2e%2e/pathlight-outside.txt',
      '/assets/..%2f..%2fpathlight-outside.txt',
      '/assets/%2e%2e%5c..%5cpathlight-outside.txt',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.body, url).not.toContain('secret')
      expect([400, 403, 404], url).toContain(response.statusCode)
    }
  })
})

describe('dashboard serving without a build', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await appServing(path.join(os.tmpdir(), `pathlight-no-dashboard-${process.pid}`))
  })
  afterAll(() => app.close())

  it('answers pages with a 503 that says how to build it', async () => {
    for (const url of ['/', '/sites/1/settings']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(503)
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8')
      expect(response.body, url).toContain('npm run build -w @pathlight/dashboard')
    }
  })

  it('still answers 404 for assets and API paths', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/index-abc.js' })).statusCode).toBe(404)
    expect((await app.inject({ method: 'GET', url: '/api/nope' })).json()).toEqual({
      success: false,
      error: 'Not found',
    })
  })
})

describe('dashboard in the whole app', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await openTestInstance({ workers: false })
  })
  afterAll(() => t.close())

  it('serves HTML at client-side routes and JSON 404 for unknown API paths', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/sites/1/settings' })
    expect([200, 503]).toContain(page.statusCode)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')

    for (const url of ['/api/definitely-not-a-route', '/api/sites/1/nothing-here', '/api/v0/sites']) {
      const response = await t.app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(404)
      expect(response.json(), url).toEqual({ success: false, error: 'Not found' })
    }
    // Real API routes still answer as before (the catch-all is the least specific route).
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/api/organizations' })).statusCode).toBe(401)
  })
})
