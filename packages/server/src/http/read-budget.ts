/**
 * The request budgets of reads sent with the session cookie (the dashboard's), which the API key budget
 * (`key-budget.ts`) does not count: at most `userMax` reads per `windowMs` per user, over every route
 * of the analytics and authenticated scopes, and at most `organizationMax` per organization over the
 * reads of its sites, whoever of its members sends them. Beyond either, 429 with `Retry-After` (and
 * `X-RateLimit-*`), from `@fastify/rate-limit`, in process or in Redis (`pl:rl:user:`, `pl:rl:org:`)
 * and so shared by every node.
 *
 * A read is a GET (or HEAD), or a POST whose route only reads (`keyUse: 'read'`, the report batch).
 * The user's budget is also counted per session cookie before the session is looked up (`session`,
 * keyed by the SHA-256 of the cookie's token, `pl:rl:session:`): looking a session up costs ten times
 * what refusing a request does, so a flood from one session is refused before that cost.
 * Requests with an API key, a private link key or no credentials use no bucket here: keys have their
 * own budget, and the per-organization queue of report queries (`query/tenant-read-queue.ts`) bounds
 * what any reader of a site may cost.
 */
import crypto from 'node:crypto'
import rateLimit from '@fastify/rate-limit'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify'
import type { Redis } from 'ioredis'
import { isStateChanging } from '../auth/origin-policy.js'
import { rateLimitError } from './rate-limit-error.js'

/** The budgets: reads per `windowMs` ms, per user and per organization. */
export interface ReadBudgetLimits {
  userMax: number
  organizationMax: number
  windowMs: number
}

export interface ReadBudget {
  /**
   * onRequest (before the caller is resolved): counts a read carrying a session cookie and no API key
   * in the bucket of that cookie's token, at the user's budget. @throws 429
   */
  session: onRequestAsyncHookHandler
  /** preHandler (after the caller is resolved): counts a cookie read in its user's bucket. @throws 429 */
  user: preHandlerAsyncHookHandler
  /**
   * Count a cookie read of one of `organizationId`'s sites in the organization's bucket; call it once
   * access to the site is granted (a stranger's requests must not spend another tenant's budget).
   * @throws AppError 429 beyond the budget
   */
  organization(request: FastifyRequest, reply: FastifyReply, organizationId: string): Promise<void>
}

/** Whether the request is a read sent with the session cookie. */
export function isCookieRead(request: FastifyRequest): boolean {
  if (request.caller?.via !== 'session') return false
  return !isStateChanging(request.method) || request.routeOptions.config.keyUse === 'read'
}

/** Better Auth's session cookie (`__Secure-` prefixed under https): its value is `token.signature`. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/

/**
 * The bucket of a request's session cookie, before anything verified it: the SHA-256 (hex) of the
 * cookie's value; undefined without one, with an Authorization header (the key decides then, see
 * `caller.ts`) or for a request that changes something.
 */
export function sessionBucketOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization) return undefined
  if (isStateChanging(request.method) && request.routeOptions.config.keyUse !== 'read') return undefined
  const value = SESSION_COOKIE.exec(request.headers.cookie ?? '')?.[1]
  return value === undefined ? undefined : crypto.createHash('sha256').update(value).digest('hex')
}

/** One `@fastify/rate-limit` registration of its own (each has its own store and run-once mark). */
async function budgetHook(
  app: FastifyInstance,
  options: {
    max: number
    windowMs: number
    per: string
    nameSpace: string
    redis?: Redis
    keyOf: (request: FastifyRequest) => string | undefined
  },
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  let hook: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined
  await app.register(async (holder) => {
    await holder.register(rateLimit, {
      global: false,
      max: options.max,
      timeWindow: options.windowMs,
      ...(options.redis ? { redis: options.redis, nameSpace: options.nameSpace } : {}),
      keyGenerator: (request) => options.keyOf(request) ?? '',
      allowList: (request) => options.keyOf(request) === undefined,
      // Within the budget no header: the key budget's X-RateLimit-* stay the only ones of a keyed answer.
      addHeadersOnExceeding: {
        'x-ratelimit-limit': false,
        'x-ratelimit-remaining': false,
        'x-ratelimit-reset': false,
      },
      errorResponseBuilder: () =>
        rateLimitError({ max: options.max, windowMs: options.windowMs }, options.per),
    })
    hook = holder.rateLimit() as unknown as typeof hook
  })
  if (!hook) throw new Error('the read budget was not created')
  return hook
}

/**
 * Create both budgets on `app` (each in a scope of its own).
 * @param limits reads per window, per user and per organization
 * @param redis shared buckets with REDIS_URL; in process without
 */
export async function createReadBudget(
  app: FastifyInstance,
  { limits, redis }: { limits: ReadBudgetLimits; redis?: Redis },
): Promise<ReadBudget> {
  const organizations = new WeakMap<FastifyRequest, string>()
  const session = await budgetHook(app, {
    max: limits.userMax,
    windowMs: limits.windowMs,
    per: 'user',
    nameSpace: 'pl:rl:session:',
    redis,
    keyOf: sessionBucketOf,
  })
  const user = await budgetHook(app, {
    max: limits.userMax,
    windowMs: limits.windowMs,
    per: 'user',
    nameSpace: 'pl:rl:user:',
    redis,
    keyOf: (request) => (isCookieRead(request) ? request.caller?.userId : undefined),
  })
  const organization = await budgetHook(app, {
    max: limits.organizationMax,
    windowMs: limits.windowMs,
    per: 'organization',
    nameSpace: 'pl:rl:org:',
    redis,
    keyOf: (request) => (isCookieRead(request) ? organizations.get(request) : undefined),
  })
  return {
    session: (request, reply) => session(request, reply),
    user: (request, reply) => user(request, reply),
    async organization(request, reply, organizationId) {
      organizations.set(request, organizationId)
      await organization(request, reply)
    },
  }
}
