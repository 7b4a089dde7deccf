/**
 * buildApp(deps): the HTTP application. Registers the scopes and never listens (tests use inject()
 * or listen on port 0 themselves). Scopes: public (health, instance, auth, track, replay), analytics (goals, errors: an
 * optional caller, read access checked per route) and authenticated (everything else under /api, via a
 * bearer API key or a session cookie).
 */
import type { EndpointSpec } from '@pathlight/protocol'
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify'
import type { Redis } from 'ioredis'
import type { Registry } from 'prom-client'
import { createAlertSubscriptions } from './alerts/alert-recipients.js'
import type { AlertRules } from './alerts/alert-rules.js'
import type { ApiKeys } from './auth/api-keys.js'
import type { AuthThrottle } from './auth/auth-throttle.js'
import type { Auth } from './auth/better-auth.js'
import type { OriginPolicy } from './auth/origin-policy.js'
import type { Config, ReadLimits } from './config.js'
import type { EmailReportSender } from './email-reports/email-report-sender.js'
import type { EmailReports } from './email-reports/email-reports.js'
import { accountRoutes } from './http/account.js'
import { adminRoutes } from './http/admin.js'
import { alertLinkRoutes, alertRoutes } from './http/alerts.js'
import { annotationRoutes, v1AnnotationRoutes } from './http/annotations.js'
import { apiKeyRoutes } from './http/api-keys.js'
import { authRoutes } from './http/auth-routes.js'
import { requireCaller } from './http/caller.js'
import { logIngestRoutes, v1CrawlerRoutes } from './http/crawlers.js'
import { dashboardRoutes } from './http/dashboard.js'
import { emailReportLinkRoutes, emailReportRoutes } from './http/email-reports.js'
import { errorHandler } from './http/error-handler.js'
import { experimentRoutes } from './http/experiments.js'
import { exportRoutes } from './http/export.js'
import { funnelRoutes } from './http/funnels.js'
import { goalRoutes } from './http/goals.js'
import { healthRoutes } from './http/health.js'
import { heatmapRoutes, heatmapViewRoutes } from './http/heatmaps.js'
import { importRoutes } from './http/import.js'
import { instanceRoutes } from './http/instance.js'
import { invitationRoutes } from './http/invitations.js'
import { registerJsonBodyParser } from './http/json-body-parser.js'
import { createKeyBudget } from './http/key-budget.js'
import { mailRoutes } from './http/mail.js'
import { mailStatusRoutes } from './http/mail-status.js'
import { memberRoutes } from './http/members.js'
import { metricsRoutes } from './http/metrics.js'
import { serverVersion } from './http/openapi/build-document.js'
import { openApiRoutes } from './http/openapi/openapi-routes.js'
import type { RouteDoc } from './http/openapi/route-doc.js'
import { organizationRoutes } from './http/organizations.js'
import { queryApiRoutes } from './http/query-api.js'
import { createReadBudget } from './http/read-budget.js'
import { optionalCaller } from './http/reader.js'
import { replayRoutes } from './http/replay.js'
import { reportRoutes } from './http/reports.js'
import { loggerOptions, logRequest } from './http/request-log.js'
import { registerRequestMetrics } from './http/request-metrics.js'
import { rybbitSdkRoutes } from './http/rybbit-sdk.js'
import { scriptRoutes } from './http/script.js'
import { registerHsts } from './http/security-headers.js'
import { applySegments } from './http/segment-query.js'
import { segmentRoutes } from './http/segments.js'
import { sessionReplayRoutes } from './http/session-replay.js'
import { siteStatusRoutes } from './http/site-status.js'
import { siteRoutes } from './http/sites.js'
import { ssoSettingsRoutes } from './http/sso-settings.js'
import { createTenantReads } from './http/tenant-reads.js'
import { trackRoutes } from './http/track.js'
import { createSiteOriginCheck } from './http/tracking-cors.js'
import { v1ExperimentRoutes } from './http/v1/experiments.js'
import { v1FunnelRoutes } from './http/v1/funnels.js'
import { v1ReportRoutes } from './http/v1/reports.js'
import { v1SiteRoutes } from './http/v1/sites.js'
import { userRoutes, v1UserRoutes } from './http/v1/users.js'
import { registerV1Guard } from './http/v1/v1-scope.js'
import { visitorDataRoutes } from './http/visitor-data.js'
import { webhookRoutes } from './http/webhooks.js'
import type { Ingest } from './ingest/ingest.js'
import type { WriteBuffer } from './ingest/write-buffer.js'
import type { MailSettings } from './mail/mail-settings.js'
import { mcpRoutes } from './mcp/mcp-routes.js'
import { oauthMetadataRoutes } from './mcp/oauth-metadata-routes.js'
import { createTenantReadQueue } from './query/tenant-read-queue.js'
import { createReplayIngest } from './replay/replay-ingest.js'
import type { ReplayLimits } from './replay/replay-limits.js'
import type { ChangeFeed } from './shared/change-feed.js'
import { errorBody } from './shared/errors.js'
import { isNulFree } from './shared/nul-free.js'
import { type Clock, systemClock } from './shared/time.js'
import { findSite } from './sites/sites.js'
import type { EventsStore } from './storage/events/events-store.js'
import type { MetadataStore } from './storage/metadata/db.js'
import type { Webhooks } from './webhooks/webhooks.js'
import { foldAfterImport } from './workers/session-fold-pass.js'

/**
 * A registered route (HEAD variants omitted) and its documentation (`config.doc` where it is
 * registered). The OpenAPI document is built from these; the authorization matrix test checks that it
 * covers them all, and the OpenAPI test that each has a doc.
 */
export interface RouteInfo {
  method: string
  url: string
  doc?: RouteDoc
  /** The endpoint contract it was registered from (`http/route.ts`); absent on routes registered by hand. */
  contract?: EndpointSpec
}

declare module 'fastify' {
  interface FastifyInstance {
    routeList: readonly RouteInfo[]
  }
  interface FastifyContextConfig {
    /** What the OpenAPI document says about the route: summary, access rule, request and answers. */
    doc?: RouteDoc
  }
}

export interface AppDeps {
  metadata: MetadataStore
  events: EventsStore
  auth: Auth
  apiKeys: ApiKeys
  origins: OriginPolicy
  authThrottle: AuthThrottle
  ingest: Ingest
  buffer: WriteBuffer
  /** Where the domain commands announce changes, so caches (here: tracker configs) drop entries. */
  changes: ChangeFeed
  webhooks: Webhooks
  alerts: { rules: AlertRules }
  /** Scheduled e-mail reports and the links of their mails. */
  emailReports: EmailReports
  /** Sends a report's period now (`POST .../email-reports/{id}/send`). */
  emailReportSender: EmailReportSender
  baseUrl: string
  /** Outgoing mail (SMTP_URL, MAIL_FROM); undefined: features that mail answer 503. */
  mail?: MailSettings
  trackKeyLimit: { max: number; windowMs: number }
  /** The request budget of an API key over every API route but tracking (v1 and dashboard alike). */
  v1Limit: { max: number; windowMs: number }
  /**
   * The session cookie's read budgets (per user, per organization) and the per-organization queue of
   * report queries (`http/read-budget.ts`, `query/tenant-read-queue.ts`).
   */
  readLimits: ReadLimits
  trustProxy: Config['trustProxy']
  redis?: Redis
  /** Strict-Transport-Security max-age in seconds; 0 or absent: no header. */
  hstsMaxAge?: number
  logLevel?: string
  /** `pretty`: one readable line per log entry (a terminal); `json` (default): one JSON object per line. */
  logFormat?: 'pretty' | 'json'
  /** Log the requests of `QUIET_ROUTES` too (ACCESS_LOG); default false: only their warnings and errors. */
  accessLog?: boolean
  isShuttingDown?: () => boolean
  /** Health answers 503 `degraded` once the oldest pending event is older than this (ms); default 60,000. */
  healthMaxPendingAgeMs?: number
  /** What session replay may cost (REPLAY_MAX_BATCH_BYTES, REPLAY_MAX_SESSION_BYTES); default `DEFAULT_REPLAY_LIMITS`. */
  replayLimits?: ReplayLimits
  /** The services' clock (tests inject one); default the system clock. */
  clock?: Clock
  /** This instance's Prometheus series (`Services.metrics`); served only with `metricsToken`. */
  metrics?: Registry
  /** METRICS_TOKEN: with it (and `metrics`), HTTP series are kept and GET /metrics exists; else neither. */
  metricsToken?: string
  /** MCP_ENABLED: whether `/api/mcp` (the MCP server, `mcp/`) exists; default true. */
  mcpEnabled?: boolean
  /** SSO_ALLOW_PRIVATE_ISSUERS: organizations' own OIDC issuers may be on private addresses; default false. */
  ssoAllowPrivateIssuers?: boolean
}

/** The longest path parameter routed, encoded: a 256-character user id at 12 characters each. */
export const MAX_PATH_PARAM_LENGTH = 256 * 12

/**
 * Routes that browsers and probes call at the rate of page views: at the default level their
 * requests are not logged (two JSON lines each would cost much of the tracking throughput; bench/README.md
 * "ingest").
 */
export const QUIET_ROUTES: ReadonlySet<string> = new Set([
  '/api/track',
  '/api/replay',
  '/api/script.js',
  '/api/script-vitals.js',
  '/api/script-engagement.js',
  '/api/script-heatmap.js',
  '/api/script-replay.js',
  '/api/sites/:siteId/tracker-config',
  '/api/health',
])

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(deps.logLevel, deps.logFormat),
    // One line per request, written when it is answered (`logRequest`), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: deps.trustProxy,
    bodyLimit: 1024 * 1024,
    // A tracked user id (up to 256 characters of up to 4 UTF-8 bytes, percent-encoded) must fit a path
    // parameter (`/api/sites/:siteId/users/:userId`); Fastify's default allows 100 characters.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // A URL Fastify cannot route (bad percent-encoding, an over-long parameter) gets the API's error
    // body, never Fastify's own, which echoes the path.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 400
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A path parameter is too long'
          : error.code === 'FST_ERR_BAD_URL'
            ? 'Malformed URL'
            : 'Malformed request'
      void (reply as FastifyReply).code(status).send(errorBody(message))
    },
  })
  app.decorateRequest('caller', null)
  app.setErrorHandler(errorHandler)
  registerJsonBodyParser(app)
  const routes: RouteInfo[] = []
  app.addHook('onRoute', (route) => {
    // The hot routes log no line per request by default: errors and warnings still go out.
    if (!deps.accessLog && QUIET_ROUTES.has(route.url)) route.logLevel = 'warn'
    const { doc, contract } = route.config ?? {}
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, url: route.url, doc, contract })
  })
  app.decorate('routeList', routes)
  app.addHook('onResponse', logRequest)
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('Not found')))
  // A path parameter holding NUL names nothing the stores can hold (PostgreSQL's text refuses NUL and
  // fails the whole query): 404 here, once, for every route, before any lookup runs.
  app.addHook('preValidation', async (request, reply) => {
    const params = request.params as Record<string, string> | undefined
    if (params && Object.values(params).some((value) => !isNulFree(value))) {
      return reply.code(404).send(errorBody('Not found'))
    }
  })
  registerHsts(app, deps.hstsMaxAge ?? 0)
  // Before every route, so the HTTP series cover them all; without a token the route does not exist.
  if (deps.metrics && deps.metricsToken !== undefined) {
    registerRequestMetrics(app, deps.metrics)
    await app.register(metricsRoutes, { registry: deps.metrics, token: deps.metricsToken })
  }
  const callers = { auth: deps.auth, apiKeys: deps.apiKeys, origins: deps.origins }

  await app.register(healthRoutes, {
    metadata: deps.metadata,
    events: deps.events,
    buffer: deps.buffer,
    maxPendingAgeMs: deps.healthMaxPendingAgeMs,
    isShuttingDown: deps.isShuttingDown ?? (() => false),
  })
  await app.register(authRoutes, { auth: deps.auth, baseUrl: deps.baseUrl, throttle: deps.authThrottle })
  await app.register(mailStatusRoutes, { mail: deps.mail })
  await app.register(instanceRoutes, { db: deps.metadata.db })
  await app.register(trackRoutes, {
    ingest: deps.ingest,
    apiKeys: deps.apiKeys,
    keyLimit: deps.trackKeyLimit,
    redis: deps.redis,
    isSiteOrigin: createSiteOriginCheck(deps.metadata.db),
  })
  const replay = createReplayIngest({ ...deps.ingest.deps, events: deps.events }, deps.replayLimits)
  await app.register(replayRoutes, { replay })
  await app.register(rybbitSdkRoutes, { ingest: deps.ingest, db: deps.metadata.db, replay })
  await app.register(scriptRoutes, {
    loadSite: (siteId) => findSite(deps.metadata.db, siteId),
    changes: deps.changes,
  })
  await app.register(emailReportLinkRoutes, { emailReports: deps.emailReports })
  await app.register(alertLinkRoutes, {
    subscriptions: createAlertSubscriptions(deps.metadata.db, deps.clock),
  })
  await app.register(heatmapViewRoutes, {
    db: deps.metadata.db,
    events: deps.events,
    clock: deps.clock,
    secret: deps.ingest.deps.salts.instance,
  })
  await app.register(openApiRoutes)
  await app.register(dashboardRoutes)

  // One request budget per API key over the analytics, v1 and authenticated scopes alike.
  const keyBudget = await createKeyBudget(app, {
    apiKeys: deps.apiKeys,
    limit: deps.v1Limit,
    redis: deps.redis,
  })

  // The session cookie's reads: a budget per user (here) and per organization, and the report queries
  // of a site's routes queued per organization (`route()` runs them through `tenantReads`), so that one
  // tenant's load does not hold up another's reports. Tracking and the workers use the store directly.
  const readBudget = await createReadBudget(app, { limits: deps.readLimits.budget, redis: deps.redis })
  const readQueue = createTenantReadQueue(deps.readLimits.queue)
  app.decorate(
    'tenantReads',
    createTenantReads({ db: deps.metadata.db, budget: readBudget, queue: readQueue }),
  )
  const readEvents = readQueue.wrap(deps.events)

  // Analytics: reads for members, private link key holders and (public sites) anyone; writes need a caller.
  await app.register(async (scope) => {
    scope.addHook('onRequest', keyBudget)
    scope.addHook('onRequest', readBudget.session)
    scope.addHook('preHandler', optionalCaller(callers))
    scope.addHook('preHandler', readBudget.user)
    applySegments(scope, deps.metadata.db)
    const analytics = { db: deps.metadata.db, events: readEvents, clock: deps.clock }
    await scope.register(goalRoutes, { ...analytics, changes: deps.changes })
    await scope.register(annotationRoutes, analytics)
    await scope.register(reportRoutes, analytics)
    await scope.register(funnelRoutes, analytics)
    await scope.register(exportRoutes, analytics)
    await scope.register(sessionReplayRoutes, { ...analytics, replayLimits: deps.replayLimits })
    await scope.register(segmentRoutes, analytics)
    await scope.register(heatmapRoutes, { ...analytics, secret: deps.ingest.deps.salts.instance })
  })

  // Invitations: the link's routes take whoever holds the token; the organization's need an admin.
  await app.register(async (scope) => {
    scope.addHook('onRequest', keyBudget)
    scope.addHook('onRequest', readBudget.session)
    scope.addHook('preHandler', optionalCaller(callers))
    scope.addHook('preHandler', readBudget.user)
    await scope.register(invitationRoutes, {
      db: deps.metadata.db,
      changes: deps.changes,
      mail: deps.mail,
      baseUrl: deps.baseUrl,
      clock: deps.clock,
    })
  })

  // Public REST API v1: API keys only, on the key's budget.
  await app.register(async (scope) => {
    await registerV1Guard(scope, { apiKeys: deps.apiKeys, budget: keyBudget })
    applySegments(scope, deps.metadata.db)
    const v1 = { db: deps.metadata.db, events: readEvents, clock: deps.clock ?? systemClock }
    await scope.register(v1SiteRoutes, { db: deps.metadata.db })
    await scope.register(v1ReportRoutes, v1)
    await scope.register(v1ExperimentRoutes, v1)
    await scope.register(v1FunnelRoutes, v1)
    await scope.register(v1AnnotationRoutes, v1)
    await scope.register(queryApiRoutes, v1)
    await scope.register(v1UserRoutes, v1)
    await scope.register(v1CrawlerRoutes, v1)
  })

  if (deps.mcpEnabled !== false) {
    await app.register(mcpRoutes, {
      db: deps.metadata.db,
      verify: (token) => deps.apiKeys.verify(token),
      baseUrl: deps.baseUrl,
      version: serverVersion(),
    })
    await app.register(oauthMetadataRoutes, { auth: deps.auth, baseUrl: deps.baseUrl })
  }

  await app.register(async (scope) => {
    scope.addHook('onRequest', keyBudget)
    scope.addHook('onRequest', readBudget.session)
    scope.addHook('preHandler', requireCaller(callers))
    scope.addHook('preHandler', readBudget.user)
    await scope.register(organizationRoutes, { db: deps.metadata.db })
    await scope.register(ssoSettingsRoutes, {
      db: deps.metadata.db,
      auth: deps.auth,
      baseUrl: deps.baseUrl,
      allowPrivateIssuers: deps.ssoAllowPrivateIssuers ?? false,
    })
    await scope.register(siteRoutes, {
      db: deps.metadata.db,
      events: deps.events,
      buffer: deps.buffer,
      changes: deps.changes,
    })
    await scope.register(siteStatusRoutes, {
      db: deps.metadata.db,
      events: readEvents,
      stats: deps.ingest.stats,
    })
    await scope.register(importRoutes, {
      db: deps.metadata.db,
      events: deps.events,
      ingest: deps.ingest,
      foldImported: () => foldAfterImport(deps.events, deps.redis),
    })
    await scope.register(logIngestRoutes, { db: deps.metadata.db, events: deps.events })
    await scope.register(visitorDataRoutes, {
      db: deps.metadata.db,
      events: readEvents,
      buffer: deps.buffer,
      clock: deps.clock,
    })
    await scope.register(experimentRoutes, { db: deps.metadata.db, clock: deps.clock })
    await scope.register(memberRoutes, {
      db: deps.metadata.db,
      changes: deps.changes,
      mail: deps.mail,
      baseUrl: deps.baseUrl,
      clock: deps.clock,
    })
    await scope.register(alertRoutes, { db: deps.metadata.db, alerts: deps.alerts.rules })
    await scope.register(emailReportRoutes, {
      db: deps.metadata.db,
      emailReports: deps.emailReports,
      emailReportSender: deps.emailReportSender,
    })
    await scope.register(userRoutes, { db: deps.metadata.db, events: readEvents })
    await scope.register(webhookRoutes, {
      db: deps.metadata.db,
      webhooks: deps.webhooks,
      clock: deps.clock ?? systemClock,
    })
    await scope.register(apiKeyRoutes, { apiKeys: deps.apiKeys })
    await scope.register(accountRoutes, { auth: deps.auth, throttle: deps.authThrottle })
    await scope.register(adminRoutes, {
      db: deps.metadata.db,
      ingest: deps.ingest,
      buffer: deps.buffer,
      events: deps.events,
      changes: deps.changes,
      authThrottle: deps.authThrottle,
    })
    await scope.register(mailRoutes, { db: deps.metadata.db, mail: deps.mail, clock: deps.clock })
  })
  return app
}
