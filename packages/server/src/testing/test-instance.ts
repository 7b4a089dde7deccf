/**
 * Test support: a whole Pathlight instance in this process (real SQLite or PostgreSQL, real chDB or,
 * in the server pass, a database of its own on a ClickHouse server (`test-events-store.ts`),
 * optional Redis), driven through `app.inject()`, with helpers that create an owner, organizations,
 * sites and API keys through the public routes, and send events to `POST /api/track`. One per test
 * file: chDB allows one data directory per process.
 *
 * Every answer is checked against the OpenAPI document (`http/openapi/`), unless `validateResponses`
 * is false: an answer that does not match it (undocumented status or media type, or a JSON body its
 * schema refuses) is replaced by a 500 naming the mismatch, and `close()` throws listing them all, so
 * any test that exercises a route also keeps its documentation honest.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp, type RouteInfo } from '../app.js'
import { isStateChanging } from '../auth/origin-policy.js'
import { loadConfig } from '../config.js'
import { buildOpenApiDocument } from '../http/openapi/build-document.js'
import { createResponseValidator, type ResponseValidator } from '../http/openapi/response-validator.js'
import type { Geolocator } from '../ingest/enrich/geolocation.js'
import { openServices, type ServiceOptions, type Services } from '../services.js'
import type { Site } from '../sites/site.js'
import { copyEventsTemplate } from './events-template.js'
import { createTempDatabase } from './postgres.js'
import { createTempClickHouseDatabase, testEventsOnServer } from './test-events-store.js'

/** What `TestInstance.track` sends as a browser's User-Agent: desktop Chrome 120 on Windows 10. */
export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

/** How `TestInstance.track` sends an event, beyond its body. */
export interface TrackOptions {
  /**
   * Send as the site owner's server would: `Authorization: Bearer <apiKey>` and neither Origin nor
   * User-Agent (the body names `user_agent` and `ip_address` when it wants them).
   */
  apiKey?: string
  /** Headers added last: they replace the defaults of the same name. */
  headers?: Record<string, string>
  /**
   * The connection's address (default inject's 127.0.0.1): a keyless request's visitor address, since
   * only a keyed request may name one in the body (`ip_address`).
   */
  remoteAddress?: string
}

export interface TestInstance {
  app: FastifyInstance
  services: Services
  dataDir: string
  /** Sign up a user; returns its session cookie and id. */
  signUp(email?: string): Promise<{ cookie: string; userId: string }>
  createOrganization(cookie: string, name?: string): Promise<string>
  createSite(cookie: string, organizationId: string, domain?: string): Promise<Site>
  createApiKey(cookie: string): Promise<string>
  /** Sign up a new user and make it a plain member of the organization directly in the store. @returns its id */
  newMember(organizationId: string): Promise<string>
  /** An owner with an organization, a site (domain example.com) and an API key. */
  seed(): Promise<{ cookie: string; userId: string; organizationId: string; site: Site; apiKey: string }>
  /**
   * `POST /api/track` with the JSON body `{ site_id: String(site.siteId), ...body }` (`body` may replace
   * `site_id`), as a visitor's browser on the site sends it: User-Agent {@link DESKTOP_CHROME_UA},
   * Origin `https://<site.domain>`. With `options.apiKey`, as a server sends it instead (see
   * {@link TrackOptions}).
   * @returns the inject response, whatever its status (a refusal is not thrown)
   */
  track(
    site: Pick<Site, 'siteId' | 'domain'>,
    body?: Record<string, unknown>,
    options?: TrackOptions,
  ): Promise<LightMyRequestResponse>
  /** Answers checked against the OpenAPI document so far, and those that did not match it. */
  responseChecks: { checked: number; mismatches: string[] }
  /** Stop everything and remove the data. @throws when an answer did not match the OpenAPI document */
  close(): Promise<void>
}

export interface TestInstanceOptions extends ServiceOptions {
  postgres?: boolean
  redis?: boolean
  env?: Record<string, string>
  geolocator?: Geolocator | null
  /** Check every answer against the OpenAPI document (default true). */
  validateResponses?: boolean
  /**
   * Give state-changing `inject()` requests that carry a cookie and no Origin or Referer the instance's
   * own origin, as a browser does (default true). Tests of the origin check itself pass false.
   */
  browserOrigin?: boolean
}

let counter = 0

let validator: ResponseValidator | undefined
/**
 * One validator per process: the document (of the routes every instance registers alike) and ajv's
 * compiled schemas are shared by every instance.
 */
const responseValidator = (routes: readonly RouteInfo[]) => {
  validator ??= createResponseValidator(buildOpenApiDocument(routes))
  return validator
}

export async function openTestInstance(options: TestInstanceOptions = {}): Promise<TestInstance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-test-'))
  copyEventsTemplate(path.join(dataDir, 'events'))
  const database = options.postgres ? await createTempDatabase() : undefined
  // The server pass: events in a database of this instance's own on the run's ClickHouse server.
  const clickhouse = testEventsOnServer() ? createTempClickHouseDatabase() : undefined
  const config = loadConfig({
    DATA_DIR: dataDir,
    GEOIP: 'off',
    LOG_LEVEL: 'silent',
    // Module tests send cookie reads far faster than a person, and run their queries side by side on
    // a loaded machine: the read budgets and the per-organization queue stay out of their way unless a
    // test sets them (`read-budget.test.ts`).
    READ_BUDGET_USER: '1000000',
    READ_BUDGET_ORGANIZATION: '1000000',
    READ_CONCURRENCY_PER_ORGANIZATION: '8',
    READ_QUEUE_PER_ORGANIZATION: '100000',
    READ_QUEUE_TIMEOUT_MS: '600000',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...clickhouse?.env,
    ...(options.redis
      ? {
          REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_KEY_PREFIX: `test:${path.basename(dataDir)}:`,
        }
      : {}),
    ...options.env,
  })
  const services = await openServices(config, {
    clock: options.clock,
    listeners: options.listeners,
    workers: options.workers,
    geolocator: options.geolocator === undefined ? null : options.geolocator,
  })
  const app = await buildApp({
    ...services,
    baseUrl: config.baseUrl,
    trackKeyLimit: config.trackKeyLimit,
    v1Limit: config.v1Limit,
    readLimits: config.readLimits,
    trustProxy: config.trustProxy,
    hstsMaxAge: config.hstsMaxAge,
    metricsToken: config.metricsToken,
    ssoAllowPrivateIssuers: config.ssoAllowPrivateIssuers,
  })
  const ownOrigin = new URL(config.baseUrl).origin
  if (options.browserOrigin !== false) addBrowserOrigin(app, ownOrigin)

  const responseChecks = { checked: 0, mismatches: [] as string[] }
  if (options.validateResponses !== false) {
    const check = responseValidator(app.routeList)
    app.addHook('onSend', async (request, reply, payload) => {
      responseChecks.checked++
      const problem = check.check({
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        contentType: reply.getHeader('content-type')?.toString(),
        payload,
      })
      if (problem === null) return payload
      responseChecks.mismatches.push(problem)
      reply.code(500).type('application/json; charset=utf-8')
      return JSON.stringify({
        success: false,
        error: `Answer does not match the OpenAPI document: ${problem}`,
      })
    })
  }

  const expectStatus = (response: LightMyRequestResponse, status: number) => {
    if (response.statusCode !== status) {
      throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`)
    }
    return response.json()
  }

  const instance: TestInstance = {
    app,
    services,
    dataDir,
    async signUp(email = `user${++counter}-${Date.now()}@example.com`) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { name: 'Test User', email, password: 'correct horse battery staple' },
      })
      const body = expectStatus(response, 200) as { user: { id: string } }
      const cookie = String(response.headers['set-cookie'] ?? '').split(';')[0] ?? ''
      return { cookie, userId: body.user.id }
    },
    async createOrganization(cookie, name = 'Acme') {
      const response = await app.inject({
        method: 'POST',
        url: '/api/organizations',
        headers: { cookie, origin: ownOrigin },
        payload: { name },
      })
      return (expectStatus(response, 201) as { id: string }).id
    },
    async createSite(cookie, organizationId, domain = 'example.com') {
      const response = await app.inject({
        method: 'POST',
        url: `/api/organizations/${organizationId}/sites`,
        headers: { cookie, origin: ownOrigin },
        payload: { name: 'Example', domain },
      })
      return expectStatus(response, 201) as Site
    },
    async newMember(organizationId) {
      const user = await instance.signUp()
      await services.metadata.db
        .insertInto('member')
        .values({
          id: crypto.randomUUID(),
          organization_id: organizationId,
          user_id: user.userId,
          role: 'member',
          created_at: new Date().toISOString(),
        })
        .execute()
      return user.userId
    },
    async createApiKey(cookie) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/user/api-keys',
        headers: { cookie, origin: ownOrigin },
        payload: { name: 'test key' },
      })
      return (expectStatus(response, 201) as { data: { key: string } }).data.key
    },
    async seed() {
      const { cookie, userId } = await instance.signUp()
      const organizationId = await instance.createOrganization(cookie)
      const site = await instance.createSite(cookie, organizationId)
      const apiKey = await instance.createApiKey(cookie)
      return { cookie, userId, organizationId, site, apiKey }
    },
    track(site, body = {}, options = {}) {
      const sender: Record<string, string> =
        options.apiKey === undefined
          ? { 'user-agent': DESKTOP_CHROME_UA, origin: `https://${site.domain}` }
          : { authorization: `Bearer ${options.apiKey}` }
      return app.inject({
        method: 'POST',
        url: '/api/track',
        headers: { 'content-type': 'application/json', ...sender, ...options.headers },
        payload: JSON.stringify({ site_id: String(site.siteId), ...body }),
        ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
      })
    },
    responseChecks,
    async close() {
      await app.close()
      await services.close()
      await database?.drop()
      await clickhouse?.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
      const { mismatches } = responseChecks
      if (mismatches.length > 0) {
        throw new Error(
          `${mismatches.length} answer(s) did not match the OpenAPI document:\n${mismatches.join('\n')}`,
        )
      }
    },
  }
  return instance
}

/**
 * Make `app.inject(options)` behave like a browser for state-changing requests with a cookie: without
 * an Origin or Referer of their own, they get `origin` (the Origin check in `http/caller.ts` needs one).
 */
function addBrowserOrigin(app: FastifyInstance, origin: string) {
  const inject = app.inject.bind(app)
  const withOrigin = (options: InjectOptions): InjectOptions => {
    const method = (options.method ?? 'GET').toUpperCase()
    const headers = options.headers ?? {}
    if (!isStateChanging(method) || !headers.cookie || 'origin' in headers || 'referer' in headers) {
      return options
    }
    return { ...options, headers: { ...headers, origin } }
  }
  app.inject = ((options?: InjectOptions | string) =>
    options === undefined
      ? inject()
      : inject(typeof options === 'string' ? options : withOrigin(options))) as typeof app.inject
}
