/**
 * Configuration: the environment parsed once, at start-up, into a typed `Config`.
 * Nothing else in the service reads `process.env` (main.ts passes `process.env` here).
 * An invalid variable fails start-up with a message naming it.
 */
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { type OidcSettings, oidcEnvShape, oidcSettings } from './auth/oidc-settings.js'
import { EMAIL_REPORT_INTERVAL_MS } from './email-reports/due-reports-pass.js'
import { type MailSettings, mailFromSchema, mailSettings, smtpUrlSchema } from './mail/mail-settings.js'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from './retention/retention-period.js'

/**
 * The bounds of one tenant's reads: the session cookie's budgets (`http/read-budget.ts`) and the
 * per-organization queue of events-store read queries (`query/tenant-read-queue.ts`).
 */
export interface ReadLimits {
  budget: { userMax: number; organizationMax: number; windowMs: number }
  queue: { concurrency: number; maxQueued: number; maxWaitMs: number }
}

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

const urlWithProtocols = (protocols: readonly string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.some((p) => value.startsWith(`${p}://`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    })

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  CLICKHOUSE_URL: urlWithProtocols(['http', 'https']).optional(),
  /** The sharded cluster's name in the ClickHouse servers' `remote_servers` (needs CLICKHOUSE_SHARD_URLS). */
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a cluster name of letters, digits and _')
    .optional(),
  /** One HTTP address per shard of CLICKHOUSE_CLUSTER, comma-separated (no path). */
  CLICKHOUSE_SHARD_URLS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined
      const urls: string[] = []
      for (const entry of value.split(/[\s,]+/).filter((v) => v !== '')) {
        const url = URL.canParse(entry) ? new URL(entry) : undefined
        if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/')
          urls.push(entry.replace(/\/+$/, ''))
        else ctx.addIssue({ code: 'custom', message: `"${entry}" is not an http(s) address without a path` })
      }
      return urls
    }),
  /** How long one read query of the events store may run, in seconds, before the store stops it. */
  QUERY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  /** Prefix for every Redis key (several instances may share one Redis). */
  REDIS_KEY_PREFIX: z.string().max(64).default(''),
  DISABLE_SIGNUP: booleanFromEnv.default(false),
  ...oidcEnvShape,
  BASE_URL: z.string().url().optional(),
  /** Origins besides BASE_URL whose pages may send state-changing requests with the session cookie. */
  TRUSTED_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins: string[] = []
      for (const entry of value.split(/[\s,]+/).filter((v) => v !== '')) {
        const url = URL.canParse(entry) ? new URL(entry) : undefined
        if (url && (url.protocol === 'http:' || url.protocol === 'https:')) origins.push(url.origin)
        else ctx.addIssue({ code: 'custom', message: `"${entry}" is not an http(s) origin` })
      }
      return origins
    }),
  /** Strict-Transport-Security max-age in seconds on every answer; 0 (default) sends no HSTS header. */
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(63_072_000).default(0),
  /** Failed sign-ins (and sign-ups, password changes) per account and client address per window. */
  AUTH_THROTTLE_ACCOUNT_MAX: z.coerce.number().int().positive().default(5),
  /** Failed attempts per client address per window, whatever the account. */
  AUTH_THROTTLE_ADDRESS_MAX: z.coerce.number().int().positive().default(50),
  AUTH_THROTTLE_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /** Signs session cookies (Better Auth) and derives the non-rotating user-id salt. */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Requests per window per API key on POST /api/track (spec: 500 per 10 minutes). */
  PATHLIGHT_TRACK_KEY_LIMIT: z.coerce.number().int().positive().default(500),
  PATHLIGHT_TRACK_KEY_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  /** Requests per window per API key on the v1 API (spec: 50 per minute). */
  PATHLIGHT_V1_LIMIT: z.coerce.number().int().positive().default(50),
  PATHLIGHT_V1_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  /** The most one session replay batch's JSON may take once inflated, in bytes (413 beyond). */
  REPLAY_MAX_BATCH_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /** The most one session's recording may take as JSON, in bytes (later batches dropped). */
  REPLAY_MAX_SESSION_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  /** Reads sent with the session cookie per user, and per organization, per READ_BUDGET_WINDOW_MS. */
  READ_BUDGET_USER: z.coerce.number().int().positive().default(100),
  READ_BUDGET_ORGANIZATION: z.coerce.number().int().positive().default(300),
  READ_BUDGET_WINDOW_MS: z.coerce.number().int().positive().default(10_000),
  /** Events-store read queries of one organization at once; default the CPUs, 2 to 4. */
  READ_CONCURRENCY_PER_ORGANIZATION: z.coerce.number().int().min(1).max(64).optional(),
  /** Queries of one organization waiting beyond those, and how long each may wait (ms). */
  READ_QUEUE_PER_ORGANIZATION: z.coerce.number().int().min(0).max(100_000).default(200),
  READ_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
  /** Trust X-Forwarded-For from these proxies (Fastify `trustProxy`): 'true', a hop count or CIDR list. */
  TRUST_PROXY: z.string().default(''),
  /** Acknowledge after the local journal (default) or only after the events-store insert ('off'). */
  INGEST_JOURNAL: z.enum(['on', 'off']).default('on'),
  /** fsync each journal append: survives power loss, not only process death; slower. */
  INGEST_JOURNAL_FSYNC: booleanFromEnv.default(false),
  /** Events-store inserts: at this many rows or this many ms (default 1000 with the journal, 10 without: see README "Durability"). */
  INGEST_FLUSH_ROWS: z.coerce.number().int().positive().default(5000),
  INGEST_FLUSH_MS: z.coerce.number().int().positive().optional(),
  /** Health answers 503 `degraded` once the oldest accepted event not yet stored is older than this (s). */
  HEALTH_MAX_PENDING_AGE_S: z.coerce.number().positive().default(60),
  /**
   * IP geolocation with the bundled DB-IP City Lite databases: 'on' searches them on disk through a
   * bounded block cache (an idle process holds next to none of them), 'memory' reads them whole into
   * memory (about 130 MB more; lookups of new addresses never read the file), 'off' disables it. 'on'
   * and 'memory' answer the same for every address.
   */
  GEOIP: z.enum(['on', 'memory', 'off']).default('on'),
  /** Let webhooks target loopback, private and link-local addresses (tests, trusted networks). */
  WEBHOOKS_ALLOW_PRIVATE: booleanFromEnv.default(false),
  /**
   * Let an organization's own OIDC provider be an issuer on a loopback, private or link-local address
   * (tests, trusted networks). Off: the issuer is refused at saving, so an organization owner cannot make
   * the server fetch from the instance's own network.
   */
  SSO_ALLOW_PRIVATE_ISSUERS: booleanFromEnv.default(false),
  /** A delivery attempt is cut off after this long (the spec's limit is 10 s). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
  /** How often the webhook worker looks for due deliveries. */
  WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** The SMTP server of outgoing mail (`smtp://user:pass@host:587`, `smtps://...`); unset: no e-mail. */
  SMTP_URL: smtpUrlSchema.optional(),
  /** The From of outgoing mail: `Name <address>` or an address; default `Pathlight <pathlight@BASE_URL's host>`. */
  MAIL_FROM: mailFromSchema.optional(),
  /** How often the mail worker looks for due messages. */
  MAIL_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** Invitation and confirmation mails to one address per 24 hours (`mail/mail-budget.ts`). */
  MAIL_BUDGET_PER_RECIPIENT: z.coerce.number().int().positive().default(5),
  /** Invitation and confirmation mails of one organization per 24 hours. */
  MAIL_BUDGET_PER_ORGANIZATION: z.coerce.number().int().positive().default(200),
  /** How often alert rules are evaluated. */
  ALERT_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
  /** How often the e-mail reports' schedule looks for due reports (`email-reports/due-reports-pass.ts`). */
  EMAIL_REPORT_INTERVAL_MS: z.coerce.number().int().positive().default(EMAIL_REPORT_INTERVAL_MS),
  /** Whole UTC days of events kept for sites without their own period; unset: forever. */
  RETENTION_DAYS: z.coerce.number().int().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS).optional(),
  /** How often the retention job runs (it also runs at start). */
  RETENTION_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 60 * 60_000),
  /** How often closed sessions are folded into their summaries (`storage/events/fold-sessions.ts`). */
  SESSION_FOLD_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  /**
   * How long an hour must have had no insert before its sessions are folded (0: at the next fold;
   * benchmarks that import history and read it at once).
   */
  SESSION_FOLD_SETTLE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 60_000),
  /** Bearer token of `GET /metrics` (Prometheus); unset: the route does not exist. */
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^\S+$/, 'must not contain whitespace')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log every request of the hot routes too (tracking, scripts, health); default off. */
  ACCESS_LOG: booleanFromEnv.default(false),
  /** `pretty` (one readable line per entry) or `json` (one JSON object per line); unset: pretty on a terminal. */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** The MCP server at /api/mcp (`mcp/`); default on. */
  MCP_ENABLED: booleanFromEnv.default(true),
})

/** The typed configuration every module receives; derived from the environment by `loadConfig`. */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  clickhouseUrl: string | undefined
  /**
   * CLICKHOUSE_CLUSTER and CLICKHOUSE_SHARD_URLS: the sharded cluster behind CLICKHOUSE_URL, when the
   * events are spread over one (`storage/events/clickhouse-cluster-store.ts`).
   */
  clickhouseCluster: { cluster: string; shardUrls: string[] } | undefined
  /** QUERY_TIMEOUT_SECONDS: how long one read query of the events store may run (default 60 s). */
  queryTimeoutSeconds: number
  redisUrl: string | undefined
  redisKeyPrefix: string
  disableSignup: boolean
  baseUrl: string
  /** Whether BASE_URL was set: without it, the origin check accepts the request's own host. */
  baseUrlConfigured: boolean
  /** Origins (scheme://host[:port]) trusted besides BASE_URL's, from TRUSTED_ORIGINS. */
  trustedOrigins: string[]
  /** HSTS max-age in seconds; 0 for none. */
  hstsMaxAge: number
  /** Throttling of failed authentication attempts (`auth/auth-throttle.ts`). */
  authThrottle: { accountMax: number; addressMax: number; windowMs: number }
  authSecret: string | undefined
  trackKeyLimit: { max: number; windowMs: number }
  v1Limit: { max: number; windowMs: number }
  /** What session replay may cost, as JSON once inflated (`replay/replay-limits.ts`). */
  replayLimits: { maxBatchBytes: number; maxSessionBytes: number }
  /** The session cookie's read budgets, and the per-organization queue of report queries. */
  readLimits: ReadLimits
  /** Fastify `trustProxy`: false, true, a CIDR/address list, or a hop-count function. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean)
  ingestFlush: { rows: number; ms: number }
  ingestJournal: { enabled: boolean; fsync: boolean }
  /** Beyond this age (ms) of the oldest pending event, health answers 503 `degraded` (HEALTH_MAX_PENDING_AGE_S). */
  healthMaxPendingAgeMs: number
  /** How the geolocation databases are held (GEOIP 'on': 'disk', 'memory'); null when GEOIP=off. */
  geoip: 'disk' | 'memory' | null
  webhooks: { allowPrivate: boolean; timeoutMs: number; pollMs: number }
  /** Organizations' own OIDC issuers may be on private addresses (SSO_ALLOW_PRIVATE_ISSUERS). */
  ssoAllowPrivateIssuers: boolean
  alertIntervalMs: number
  /** How often due e-mail reports are looked for (also at start), ms. */
  emailReportIntervalMs: number
  /** Outgoing mail (`mail/mail-settings.ts`) from SMTP_URL and MAIL_FROM; undefined: no e-mail is sent. */
  mail: MailSettings | undefined
  /** The instance-wide OpenID Connect provider (`auth/oidc-settings.ts`); undefined without OIDC_ISSUER. */
  oidc: OidcSettings | undefined
  /** Event retention (`retention/`): the default period of sites without their own (null: forever). */
  retention: { defaultDays: number | null; intervalMs: number }
  /** The session fold (`storage/events/fold-sessions.ts`): how often it runs (also at start), how long hours settle. */
  sessionFold: { intervalMs: number; settleMs: number }
  /** The bearer token of `GET /metrics`, from METRICS_TOKEN; undefined: no metrics are kept or served. */
  metricsToken: string | undefined
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL']
  /** Whether the hot routes (`QUIET_ROUTES` of `app.ts`) log each request at `logLevel`. */
  accessLog: boolean
  /** LOG_FORMAT; undefined: `serve` picks pretty when stdout is a terminal, else json. */
  logFormat: 'pretty' | 'json' | undefined
  /** MCP_ENABLED: whether `/api/mcp` answers (default true). */
  mcpEnabled: boolean
}

/** Thrown by `loadConfig`; its message names every invalid variable. */
export class ConfigError extends Error {}

/**
 * Parse the environment into a Config.
 * @param env the process environment (or a test's object)
 * @throws ConfigError naming each invalid variable, e.g. `PORT: Expected number, received nan`
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => key in envSchema.shape && value !== undefined && value !== '',
    ),
  )
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`)
  }
  const e = parsed.data
  let oidc: OidcSettings | undefined
  try {
    oidc = oidcSettings(e)
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`)
  }
  const clusterProblem =
    e.CLICKHOUSE_CLUSTER === undefined && e.CLICKHOUSE_SHARD_URLS === undefined
      ? undefined
      : e.CLICKHOUSE_CLUSTER === undefined
        ? 'CLICKHOUSE_CLUSTER: required with CLICKHOUSE_SHARD_URLS (the cluster the shards form)'
        : !e.CLICKHOUSE_SHARD_URLS?.length
          ? 'CLICKHOUSE_SHARD_URLS: required with CLICKHOUSE_CLUSTER (one HTTP address per shard)'
          : e.CLICKHOUSE_URL === undefined
            ? 'CLICKHOUSE_URL: required with CLICKHOUSE_CLUSTER (a server of the cluster, with the database as its path)'
            : undefined
  if (clusterProblem) throw new ConfigError(`Invalid configuration:\n  ${clusterProblem}`)
  const baseUrl = (e.BASE_URL ?? `http://${e.HOST === '0.0.0.0' ? 'localhost' : e.HOST}:${e.PORT}`).replace(
    /\/$/,
    '',
  )
  return {
    port: e.PORT,
    host: e.HOST,
    // npm runs scripts in the workspace's folder and names where it was started in INIT_CWD: `npm start`
    // at the repository's root keeps its data in ./data there, as the README says.
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseCluster:
      e.CLICKHOUSE_CLUSTER && e.CLICKHOUSE_SHARD_URLS
        ? { cluster: e.CLICKHOUSE_CLUSTER, shardUrls: e.CLICKHOUSE_SHARD_URLS }
        : undefined,
    queryTimeoutSeconds: e.QUERY_TIMEOUT_SECONDS,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    disableSignup: e.DISABLE_SIGNUP,
    baseUrl,
    baseUrlConfigured: e.BASE_URL !== undefined,
    trustedOrigins: e.TRUSTED_ORIGINS,
    hstsMaxAge: e.HSTS_MAX_AGE,
    authThrottle: {
      accountMax: e.AUTH_THROTTLE_ACCOUNT_MAX,
      addressMax: e.AUTH_THROTTLE_ADDRESS_MAX,
      windowMs: e.AUTH_THROTTLE_WINDOW_MS,
    },
    authSecret: e.AUTH_SECRET,
    trackKeyLimit: { max: e.PATHLIGHT_TRACK_KEY_LIMIT, windowMs: e.PATHLIGHT_TRACK_KEY_WINDOW_MS },
    v1Limit: { max: e.PATHLIGHT_V1_LIMIT, windowMs: e.PATHLIGHT_V1_WINDOW_MS },
    replayLimits: { maxBatchBytes: e.REPLAY_MAX_BATCH_BYTES, maxSessionBytes: e.REPLAY_MAX_SESSION_BYTES },
    readLimits: {
      budget: {
        userMax: e.READ_BUDGET_USER,
        organizationMax: e.READ_BUDGET_ORGANIZATION,
        windowMs: e.READ_BUDGET_WINDOW_MS,
      },
      queue: {
        concurrency:
          // As many as the embedded store's read sessions (chdb-store.ts: one per CPU, 2 to 4): a lone
          // organization's page runs its reports side by side, and a busy one's extra queries wait in
          // its own line, so another's wait at most for one query in flight to end.
          e.READ_CONCURRENCY_PER_ORGANIZATION ?? Math.min(4, Math.max(2, os.availableParallelism())),
        maxQueued: e.READ_QUEUE_PER_ORGANIZATION,
        maxWaitMs: e.READ_QUEUE_TIMEOUT_MS,
      },
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    ingestFlush: {
      rows: e.INGEST_FLUSH_ROWS,
      ms: e.INGEST_FLUSH_MS ?? (e.INGEST_JOURNAL === 'on' ? 1000 : 10),
    },
    ingestJournal: { enabled: e.INGEST_JOURNAL === 'on', fsync: e.INGEST_JOURNAL_FSYNC },
    healthMaxPendingAgeMs: e.HEALTH_MAX_PENDING_AGE_S * 1000,
    geoip: e.GEOIP === 'off' ? null : e.GEOIP === 'on' ? 'disk' : 'memory',
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      pollMs: e.WEBHOOK_POLL_MS,
    },
    ssoAllowPrivateIssuers: e.SSO_ALLOW_PRIVATE_ISSUERS,
    alertIntervalMs: e.ALERT_INTERVAL_MS,
    emailReportIntervalMs: e.EMAIL_REPORT_INTERVAL_MS,
    mail: mailSettings({
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      pollMs: e.MAIL_POLL_MS,
      baseUrl,
      budget: {
        perRecipient: e.MAIL_BUDGET_PER_RECIPIENT,
        perOrganization: e.MAIL_BUDGET_PER_ORGANIZATION,
        windowMs: 86_400_000,
      },
    }),
    oidc,
    retention: { defaultDays: e.RETENTION_DAYS ?? null, intervalMs: e.RETENTION_INTERVAL_MS },
    sessionFold: { intervalMs: e.SESSION_FOLD_INTERVAL_MS, settleMs: e.SESSION_FOLD_SETTLE_MS },
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    accessLog: e.ACCESS_LOG,
    logFormat: e.LOG_FORMAT,
    mcpEnabled: e.MCP_ENABLED,
  }
}

function parseTrustProxy(value: string): Config['trustProxy'] {
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    return (_address, hop) => hop < hops
  }
  return value
}
