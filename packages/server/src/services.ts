/**
 * Composition root below main.ts: opens the stores chosen by the config and wires the domain modules.
 * `openServices` is what `pathlight serve` and the end-to-end tests run; `close()` flushes the write
 * buffer before closing stores, so nothing acknowledged is lost. One change feed (`changes`) carries
 * what the domain commands change to every cache of metadata in this process.
 */
import path from 'node:path'
import type { Redis } from 'ioredis'
import type { Registry } from 'prom-client'
import { type AlertRules, createAlertRules } from './alerts/alert-rules.js'
import { type EvaluationResult, evaluateAlerts } from './alerts/evaluate-alerts.js'
import { type ApiKeys, createApiKeys } from './auth/api-keys.js'
import { createMemoryAttemptCounter } from './auth/attempt-counter.js'
import { type AuthThrottle, createAuthThrottle } from './auth/auth-throttle.js'
import { type Auth, createAuth } from './auth/better-auth.js'
import { withOAuthTokens } from './auth/mcp-oauth-tokens.js'
import { createOriginPolicy, type OriginPolicy } from './auth/origin-policy.js'
import { createRedisAttemptCounter } from './auth/redis-attempt-counter.js'
import type { Config } from './config.js'
import { dueReportsPass } from './email-reports/due-reports-pass.js'
import { createEmailReportSender, type EmailReportSender } from './email-reports/email-report-sender.js'
import { createEmailReports, type EmailReports } from './email-reports/email-reports.js'
import type { Goal } from './goals/goal.js'
import { listGoals } from './goals/goals.js'
import { type Geolocator, openGeolocator } from './ingest/enrich/geolocation.js'
import { createIngest, type Ingest, type IngestListeners } from './ingest/ingest.js'
import { createSiteLookup, type SiteLookup } from './ingest/ingest-site.js'
import { createIngestStats } from './ingest/ingest-stats.js'
import { openJournal } from './ingest/journal.js'
import { createJournaledWriteBuffer } from './ingest/journaled-write-buffer.js'
import { type RecoveryReport, recoverJournal } from './ingest/recover-journal.js'
import { createMemoryEventIdRegistry } from './ingest/state/event-id-registry.js'
import { createMemoryPageviewQuota } from './ingest/state/pageview-quota.js'
import { createRedisEventIdRegistry } from './ingest/state/redis-event-id-registry.js'
import { createRedisPageviewQuota } from './ingest/state/redis-pageview-quota.js'
import { createRedisSessionStore } from './ingest/state/redis-session-store.js'
import { createMemorySessionStore, type SessionStore } from './ingest/state/session-store.js'
import { createUserIdSalts } from './ingest/state/user-id-salts.js'
import { createWriteBuffer, type WriteBuffer } from './ingest/write-buffer.js'
import { createMailRunner, type MailRunner } from './mail/mail-outbox.js'
import { type MailSettings, mailBudgetOf } from './mail/mail-settings.js'
import { pruneMail } from './mail/prune-mail.js'
import { createSmtpSender } from './mail/smtp-sender.js'
import { eventsStoreTimings } from './metrics/events-store-metrics.js'
import { registerIngestMetrics } from './metrics/ingest-metrics.js'
import { registerMailMetrics } from './metrics/mail-metrics.js'
import { createMetricsRegistry } from './metrics/metrics-registry.js'
import { registerWebhookMetrics } from './metrics/webhook-metrics.js'
import { roleIn } from './organizations/organizations.js'
import type { ReplayLimits } from './replay/replay-limits.js'
import { expireEvents } from './retention/expire-events.js'
import { type ChangeFeed, createChangeFeed, createRedisChangeFeed } from './shared/change-feed.js'
import { type Clock, systemClock } from './shared/time.js'
import { createTtlCache } from './shared/ttl-cache.js'
import { findSite } from './sites/sites.js'
import type { EventsStore } from './storage/events/events-store.js'
import { openEventsStore } from './storage/events/open-events-store.js'
import { timeEventsStore } from './storage/events/timed-events-store.js'
import { type MetadataStore, openMetadataStore } from './storage/metadata/db.js'
import { getOrCreateSecret } from './storage/metadata/instance-settings.js'
import { createUserNoter } from './users/user-noter.js'
import { createVisitorLinks } from './users/visitor-links.js'
import { createConversionTracker } from './webhooks/conversion-tracker.js'
import { createDeliveryRunner, type DeliveryRunner } from './webhooks/deliveries.js'
import { ingestFacts } from './webhooks/ingest-facts.js'
import { createOutbox, type Outbox } from './webhooks/outbox.js'
import { postWebhook } from './webhooks/post-webhook.js'
import { pruneDeliveries } from './webhooks/prune-deliveries.js'
import { recoverIngestFacts } from './webhooks/recover-ingest-facts.js'
import { createWebhooks, type Webhooks } from './webhooks/webhooks.js'
import { startPeriodicJob } from './workers/periodic-job.js'
import { sessionFoldPass } from './workers/session-fold-pass.js'
import { startWebhookWorker } from './workers/webhook-worker.js'

/** Messages the mail worker sends at once (each on its own SMTP connection). */
const MAIL_BATCH_SIZE = 5

export interface Services {
  config: Config
  clock: Clock
  metadata: MetadataStore
  events: EventsStore
  auth: Auth
  apiKeys: ApiKeys
  /** Which page origins may send state-changing cookie requests. */
  origins: OriginPolicy
  /** Throttling of sign-in, sign-up and password attempts. */
  authThrottle: AuthThrottle
  ingest: Ingest
  buffer: WriteBuffer
  /** The ingest path's site cache; it drops a site when a change of it is announced on `changes`. */
  siteLookup: SiteLookup
  /** Where domain commands announce changes; every cache of metadata subscribes. */
  changes: ChangeFeed
  webhooks: Webhooks
  outbox: Outbox
  deliveries: DeliveryRunner
  /**
   * The mail outbox's sender (`mail/mail-outbox.ts`), undefined without SMTP_URL (features then refuse
   * with `mailUnavailable()`; `config.mail` says whether mail is configured).
   */
  mailRunner: MailRunner | undefined
  /** `config.mail`: the SMTP settings, undefined without SMTP_URL (buildApp takes them from here). */
  mail: MailSettings | undefined
  /** `config.replayLimits`: what session replay may cost (buildApp takes them from here). */
  replayLimits: ReplayLimits
  alerts: { rules: AlertRules; evaluate: () => Promise<EvaluationResult> }
  /** Scheduled e-mail reports (`email-reports/`); their schedule runs as a worker when mail is configured. */
  emailReports: EmailReports
  /** Sends the reports' periods, at once or as the schedule's pass (`sendDue`). */
  emailReportSender: EmailReportSender
  sessions: SessionStore
  geolocator: Geolocator | null
  redis: Redis | undefined
  /** What crash recovery found in the ingest journal at start (undefined with INGEST_JOURNAL=off). */
  recovery: RecoveryReport | undefined
  /** The Prometheus series of this instance (`GET /metrics`); undefined unless METRICS_TOKEN is set. */
  metrics: Registry | undefined
  /**
   * Stop the workers, flush the write buffer and the outbox, close the stores. Never throws: a failure
   * is logged and the rest still closes. A failed final flush (the events store refuses writes) leaves
   * the events in the ingest journal, which the next start recovers.
   * @returns `journaledEvents`: accepted events not in the events store that wait in the journal (0 normally)
   */
  close(): Promise<{ journaledEvents: number }>
}

export interface ServiceOptions {
  clock?: Clock
  listeners?: IngestListeners
  /** Start the background workers (webhook delivery, alerts, retention); tests that drive them by hand pass false. */
  workers?: boolean
  /** Reuse an open geolocator (tests share one: the DB-IP files are large to hold in memory). */
  geolocator?: Geolocator | null
}

export async function openServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock
  const metadata = await openMetadataStore(
    config.databaseUrl
      ? { postgres: config.databaseUrl }
      : { sqlite: path.join(config.dataDir, 'pathlight.db') },
  )
  const opened: { close(): Promise<void> | void }[] = [metadata]
  try {
    const metrics = config.metricsToken === undefined ? undefined : createMetricsRegistry()
    const store = await openEventsStore({
      clickhouseUrl: config.clickhouseUrl,
      clickhouseCluster: config.clickhouseCluster,
      dataDir: config.dataDir,
      queryTimeoutSeconds: config.queryTimeoutSeconds,
    })
    const events = metrics ? timeEventsStore(store, eventsStoreTimings(metrics)) : store
    opened.push(events)
    // ioredis and pg are loaded only when configured: a single process on the embedded stores does not
    // hold their code.
    const redis = config.redisUrl
      ? new (await import('ioredis')).Redis(config.redisUrl, {
          maxRetriesPerRequest: 2,
          connectTimeout: 5000,
          lazyConnect: true,
          keyPrefix: config.redisKeyPrefix,
        })
      : undefined
    if (redis) {
      await redis.connect()
      opened.push({ close: () => redis.quit().then(() => undefined) })
    }
    // With Redis, every node's caches hear of a change (a removed member, a deleted key) at once.
    const shared = redis ? await createRedisChangeFeed(redis, `${config.redisKeyPrefix}changes`) : undefined
    if (shared) opened.push(shared)
    const changes: ChangeFeed = shared ?? createChangeFeed()
    const geolocator =
      options.geolocator !== undefined
        ? options.geolocator
        : config.geoip
          ? await openGeolocator(undefined, config.geoip)
          : null

    const authSecret = config.authSecret ?? (await getOrCreateSecret(metadata.db, 'auth_secret'))
    const origins = createOriginPolicy(config)
    const auth = createAuth({
      store: metadata,
      secret: authSecret,
      baseUrl: config.baseUrl,
      disableSignup: config.disableSignup,
      origins,
      logLevel: config.logLevel,
      mail: config.mail,
      oidc: config.oidc,
      changes,
    })
    const authThrottle = createAuthThrottle(
      redis ? createRedisAttemptCounter(redis, clock) : createMemoryAttemptCounter(clock),
      config.authThrottle,
      clock,
    )
    const apiKeys = withOAuthTokens(createApiKeys(metadata.db, { clock, changes }), metadata.db, clock)
    const sessions = redis ? createRedisSessionStore(redis) : createMemorySessionStore()
    const quota = redis ? createRedisPageviewQuota(redis, events) : createMemoryPageviewQuota(events)
    const eventIds = redis ? createRedisEventIdRegistry(redis) : createMemoryEventIdRegistry(clock)
    const salts = createUserIdSalts(metadata.db, await getOrCreateSecret(metadata.db, 'user_id_secret'))
    const journalDir = path.join(config.dataDir, 'journal')
    const outbox = createOutbox(metadata.db, { clock, changes })
    const goalsOf = createGoalsCache(metadata, clock, changes)
    let recovery: RecoveryReport | undefined
    let buffer: WriteBuffer
    if (config.ingestJournal.enabled) {
      recovery = await recoverJournal(journalDir, events, {
        existingSites: async (ids) =>
          new Set(
            ids.length === 0
              ? []
              : (
                  await metadata.db.selectFrom('site').select('site_id').where('site_id', 'in', ids).execute()
                ).map((r) => Number(r.site_id)),
          ),
        // The outbox is written after the journal: a crash between the two left these events' webhook
        // deliveries unwritten. Keyed facts make this a no-op for those that were written.
        onRecovered: recoverIngestFacts(outbox, goalsOf, events),
      })
      buffer = createJournaledWriteBuffer(
        await openJournal(journalDir, { fsync: config.ingestJournal.fsync }),
        (lines) => events.insertEncoded(lines),
        {
          maxRows: config.ingestFlush.rows,
          maxDelayMs: config.ingestFlush.ms,
          onInsertError: (error) => console.error('events store insert failed; will retry:', error),
        },
      )
    } else {
      buffer = createWriteBuffer((rows) => events.insert(rows), {
        maxRows: config.ingestFlush.rows,
        maxDelayMs: config.ingestFlush.ms,
      })
    }
    opened.push({ close: () => buffer.close() })
    const webhooks = createWebhooks(metadata.db, {
      allowPrivate: config.webhooks.allowPrivate,
      clock,
      changes,
    })
    const webhookMetrics = metrics && registerWebhookMetrics(metrics, metadata.db)
    const deliveries = createDeliveryRunner(metadata, {
      clock,
      post: async (url, body, headers) => {
        const result = await postWebhook(url, body, headers, {
          timeoutMs: config.webhooks.timeoutMs,
          allowPrivate: config.webhooks.allowPrivate,
        })
        webhookMetrics?.attempted(result)
        return result
      },
      changes,
    })
    const mailMetrics = metrics && registerMailMetrics(metrics, metadata.db)
    const mailSender = config.mail && createSmtpSender(config.mail)
    const mailRunner =
      mailSender &&
      createMailRunner(metadata, {
        clock,
        // Messages of a batch are sent side by side, one SMTP connection each: few, as SMTP servers
        // limit the connections of one client.
        batchSize: MAIL_BATCH_SIZE,
        send: mailSender,
        onAttempt: (result) => mailMetrics?.attempted(result),
      })
    const facts = ingestFacts(outbox, {
      conversions: createConversionTracker(redis),
      goalsOf,
    })
    const alertRules = createAlertRules(metadata.db, clock, {
      ...(config.mail && {
        mail: { baseUrl: config.baseUrl, budget: mailBudgetOf(config.mail), verifiedOnly: true },
      }),
    })
    const evaluate = () =>
      evaluateAlerts({
        db: metadata.db,
        events,
        outbox,
        clock,
        mail: config.mail && { baseUrl: config.baseUrl },
      })
    const emailReportDeps = { db: metadata.db, events, baseUrl: config.baseUrl, mail: config.mail, clock }
    const emailReports = createEmailReports(emailReportDeps)
    const emailReportSender = createEmailReportSender(emailReportDeps)
    const roles = createRoleCache(metadata, clock, changes)
    const noteUser = createUserNoter(metadata.db)
    const siteLookup = createSiteLookup((siteId) => findSite(metadata.db, siteId), { clock, changes })
    const ingest = createIngest(
      {
        sites: siteLookup,
        apiKeys,
        roleIn: roles,
        geolocator,
        sessions,
        salts,
        quota,
        eventIds,
        clock,
        visitorLinks: createVisitorLinks(metadata.db, { clock }),
      },
      buffer,
      createIngestStats(),
      {
        onCommitted: (draft) => {
          const extra = options.listeners?.onCommitted?.(draft)
          const queued = facts(draft)
          const noted = draft.identified
            ? noteUser(draft.site.siteId, draft.row.user_id, draft.row.timestamp)
            : undefined
          const pending = [extra, queued, noted].filter((p): p is Promise<void> => p !== undefined)
          return pending.length === 0 ? undefined : Promise.all(pending).then(() => undefined)
        },
        onListenerError: (error) => console.error('webhook outbox write failed:', error),
      },
    )
    if (metrics) registerIngestMetrics(metrics, { stats: ingest.stats.snapshot, buffer })
    const workers =
      options.workers === false
        ? []
        : [
            startWebhookWorker(deliveries, {
              pollMs: config.webhooks.pollMs,
              onError: (error) => console.error('webhook worker:', error),
            }),
            ...(mailRunner && config.mail
              ? [
                  startWebhookWorker(mailRunner, {
                    pollMs: config.mail.pollMs,
                    batchSize: MAIL_BATCH_SIZE,
                    onError: (error) => console.error('mail worker:', error),
                  }),
                ]
              : []),
            ...(config.mail
              ? [
                  startPeriodicJob(dueReportsPass(emailReportSender, redis), {
                    intervalMs: config.emailReportIntervalMs,
                    onError: (error) => console.error('e-mail reports:', error),
                  }),
                ]
              : []),
            startPeriodicJob(evaluate, {
              intervalMs: config.alertIntervalMs,
              atStart: false,
              onError: (error) => console.error('alert scheduler:', error),
            }),
            startPeriodicJob(
              () =>
                expireEvents({
                  db: metadata.db,
                  events,
                  defaultDays: config.retention.defaultDays,
                  clock,
                }),
              {
                intervalMs: config.retention.intervalMs,
                onError: (error) => console.error('retention job:', error),
              },
            ),
            // Handled mail rows are kept MAIL_KEEP_DAYS; checked as often as the events' retention.
            startPeriodicJob(() => pruneMail(metadata.db, { clock }), {
              intervalMs: config.retention.intervalMs,
              onError: (error) => console.error('mail pruning:', error),
            }),
            // Handled webhook deliveries are kept DELIVERY_KEEP_DAYS; checked as often too.
            startPeriodicJob(() => pruneDeliveries(metadata.db, { clock }), {
              intervalMs: config.retention.intervalMs,
              onError: (error) => console.error('webhook delivery pruning:', error),
            }),
            startPeriodicJob(sessionFoldPass(events, redis, { settleMs: config.sessionFold.settleMs }), {
              intervalMs: config.sessionFold.intervalMs,
              onError: (error) => console.error('session fold:', error),
            }),
          ]

    return {
      config,
      clock,
      metadata,
      events,
      auth,
      apiKeys,
      origins,
      authThrottle,
      ingest,
      buffer,
      siteLookup,
      changes,
      webhooks,
      outbox,
      deliveries,
      mailRunner,
      mail: config.mail,
      replayLimits: config.replayLimits,
      alerts: { rules: alertRules, evaluate },
      emailReports,
      emailReportSender,
      sessions,
      geolocator,
      redis,
      recovery,
      metrics,
      async close() {
        const attempt = async (what: string, step: () => unknown) => {
          try {
            await step()
          } catch (error) {
            console.error(`shutdown: ${what} failed:`, error)
          }
        }
        for (const worker of workers) await attempt('stopping a worker', () => worker.stop())
        let journaledEvents = 0
        try {
          await buffer.flush()
        } catch (error) {
          journaledEvents = buffer.stats().pendingRows
          console.error(
            `shutdown: the final flush to the events store failed; ${journaledEvents} accepted event(s) stay in ` +
              `the ingest journal (${journalDir}) and are stored at the next start:`,
            error,
          )
        }
        await attempt('flushing the webhook outbox', () => outbox.flush())
        await attempt('closing the session store', () => sessions.close())
        if (options.geolocator === undefined) await attempt('closing geolocation', () => geolocator?.close())
        for (const resource of opened.reverse()) await attempt('closing a store', () => resource.close())
        return { journaledEvents }
      },
    }
  } catch (error) {
    for (const resource of opened.reverse()) await resource.close()
    throw error
  }
}

/**
 * Membership lookups on the ingest path, cached 30 s per (user, organization); a membership change
 * announced on `changes` (by any node, with Redis) drops its entry at once, an organization's or a
 * user's deletion every entry of theirs.
 */
function createRoleCache(metadata: MetadataStore, clock: Clock, changes: ChangeFeed) {
  const cache = createTtlCache<string, Awaited<ReturnType<typeof roleIn>>>({
    ttlMs: 30_000,
    maxEntries: 10_000,
    clock,
  })
  changes.subscribe((change) => {
    if (change.kind === 'member') cache.delete(`${change.userId}:${change.organizationId}`)
    else if (change.kind === 'organization')
      cache.deleteWhere((_role, key) => key.endsWith(`:${change.organizationId}`))
    else if (change.kind === 'user') cache.deleteWhere((_role, key) => key.startsWith(`${change.userId}:`))
  })
  return async (userId: string, organizationId: string) => {
    const key = `${userId}:${organizationId}`
    const hit = cache.get(key)
    if (hit !== undefined) return hit
    return cache.load(key, () => roleIn(metadata.db, userId, organizationId))
  }
}

/**
 * A site's goals (at most 1,000) for `goal.converted` webhooks, cached 5 s; a change of the site's
 * goals announced on `changes` drops its entry at once.
 */
function createGoalsCache(metadata: MetadataStore, clock: Clock, changes: ChangeFeed) {
  const cache = createTtlCache<number, Goal[]>({ ttlMs: 5000, maxEntries: 10_000, clock })
  const load = async (siteId: number) =>
    (await listGoals(metadata.db, siteId, { offset: 0, limit: 1000 })).goals
  changes.subscribe((change) => {
    if (change.kind === 'goals') cache.delete(change.siteId)
  })
  return (siteId: number) => cache.load(siteId, load)
}
