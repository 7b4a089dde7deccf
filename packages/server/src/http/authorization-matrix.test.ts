/**
 * The authorization matrix: every route of the service, called with every kind of credential.
 * Each cell asserts the status, and that no data of the other organization appears in the body.
 * The route table must cover every registered route: adding a route without rows fails this test.
 */
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isStateChanging } from '../auth/origin-policy.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

/**
 * The credentials: no credentials; the `full` API keys of four users (another organization's, and this
 * organization's member, admin and owner); the owner's `track` and `read` keys and session cookie; and
 * private link keys (this site's, another site's, a revoked one).
 */
const credentials = [
  'none',
  'outsider',
  'member',
  'admin',
  'owner',
  'ownerTrackKey',
  'ownerReadKey',
  'ownerSession',
  'privateKey',
  'otherSitePrivateKey',
  'revokedPrivateKey',
] as const
type Credential = (typeof credentials)[number]
type Expectation = Record<Credential, number>

/** The owner's `read` key: as the owner on a GET, 403 on a route that changes something. */
const AS_OWNER_WHEN_READING = -1

/** Who may call a route, and the status each credential gets. */
const access = {
  public: (ok: number): Expectation => Object.fromEntries(credentials.map((c) => [c, ok])) as Expectation,
  signedIn: (ok: number): Expectation => ({
    none: 401,
    outsider: ok,
    member: ok,
    admin: ok,
    owner: ok,
    ownerTrackKey: 403,
    ownerReadKey: AS_OWNER_WHEN_READING,
    ownerSession: ok,
    privateKey: 401,
    otherSitePrivateKey: 401,
    revokedPrivateKey: 401,
  }),
  /** The signed-in user's own sessions and password: the session cookie only. */
  session: (ok: number): Expectation => ({
    ...access.signedIn(403),
    ownerReadKey: 403,
    ownerSession: ok,
  }),
  member: (ok: number): Expectation => ({ ...access.signedIn(ok), outsider: 404 }),
  admin: (ok: number): Expectation => ({ ...access.member(ok), member: 403 }),
  instanceOwner: (ok: number): Expectation => ({ ...access.signedIn(403), owner: ok, ownerSession: ok }),
  /** The v1 API: API keys only (a member's key reads; another organization's key gets 404). */
  v1: (ok: number): Expectation => ({ ...access.member(ok), ownerSession: 401 }),
  /** Analytics reads (`siteForReader`): members, and holders of this site's current private link key. */
  reader: (ok: number): Expectation => ({
    none: 401,
    outsider: 404,
    member: ok,
    admin: ok,
    owner: ok,
    ownerTrackKey: 403,
    ownerReadKey: AS_OWNER_WHEN_READING,
    ownerSession: ok,
    privateKey: ok,
    otherSitePrivateKey: 404,
    revokedPrivateKey: 404,
  }),
}

/** The status a credential gets on a row (resolving `AS_OWNER_WHEN_READING`). */
const statusOf = (row: Row, as: Credential): number => {
  const status = row.expect[as]
  if (status !== AS_OWNER_WHEN_READING) return status
  return isStateChanging(row.method) ? 403 : row.expect.owner
}

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

interface World {
  t: TestInstance
  organizationId: string
  siteId: number
  users: Record<'owner' | 'admin' | 'member' | 'outsider', { cookie: string; userId: string; key: string }>
  ownerTrackKey: string
  ownerReadKey: string
  ownerEmail: string
  privateKey: string
  otherSitePrivateKey: string
  revokedPrivateKey: string
  webhookId: string
  alertId: string
  /** A delivery of that webhook, for the redelivery route. */
  deliveryId: string
  /** Strings that only the other organization's data contains. */
  otherOrgSecrets: string[]
}

interface Row {
  method: string
  url: string
  expect: Expectation
  /** Builds the request for one cell; may create fresh resources (for destructive routes). */
  request: (
    w: World,
    as: Credential,
  ) => Promise<{ url: string; body?: unknown; headers?: Record<string, string> }>
}

const sitePath =
  (suffix = '') =>
  async (w: World) => ({ url: `/api/sites/${w.siteId}${suffix}` })
const orgPath =
  (suffix = '') =>
  async (w: World) => ({ url: `/api/organizations/${w.organizationId}${suffix}` })

/**
 * An e-mail report of the matrix's site with one pending recipient, written to the store directly (the
 * matrix's instance sends no e-mail, so the API refuses to schedule one): its id and the recipient's token.
 */
/** A new alert rule of the world's site naming one outside address: the token of that address's links. */
async function freshAlertRecipient(w: World): Promise<string> {
  const email = `matrix-${crypto.randomUUID()}@example.com`
  const rule = await w.t.services.alerts.rules.create(w.siteId, w.users.owner.userId, {
    name: 'mailing',
    metric: 'errors',
    windowMinutes: 60,
    comparison: 'above',
    threshold: 1,
    emailRecipients: [email],
  })
  const row = await w.t.services.metadata.db
    .selectFrom('alert_recipient')
    .select('token')
    .where('rule_id', '=', rule.id)
    .executeTakeFirstOrThrow()
  return row.token
}

async function freshEmailReport(w: World): Promise<{ id: string; token: string }> {
  const db = w.t.services.metadata.db
  const id = crypto.randomUUID()
  const token = crypto.randomBytes(24).toString('base64url')
  const at = new Date().toISOString()
  await db
    .insertInto('email_report')
    .values({
      id,
      site_id: w.siteId,
      frequency: 'weekly',
      time_zone: 'UTC',
      created_by: w.users.owner.userId,
      created_at: at,
    })
    .execute()
  await db
    .insertInto('email_report_recipient')
    .values({
      id: crypto.randomUUID(),
      report_id: id,
      email: `matrix-${id}@example.com`,
      status: 'pending',
      token,
      created_at: at,
      confirmed_at: null,
      unsubscribed_at: null,
    })
    .execute()
  return { id, token }
}

async function freshSite(w: World): Promise<number> {
  return (await w.t.createSite(w.users.owner.cookie, w.organizationId, 'example.com')).siteId
}

/** A goal of the matrix's site, created by its owner (for the routes that change or delete one). */
async function freshGoal(w: World): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${w.siteId}/goals`,
    headers: { cookie: w.users.owner.cookie },
    payload: { name: 'matrix goal', goalType: 'path', config: { pathPattern: '/matrix' } },
  })
  return (response.json() as { goalId: number }).goalId
}

/** An annotation of the matrix's site, written by its owner (for the routes that change or delete one). */
async function freshAnnotation(w: World): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${w.siteId}/annotations`,
    headers: { cookie: w.users.owner.cookie },
    payload: { date: '2026-01-01', text: 'matrix annotation' },
  })
  return (response.json() as { data: { id: number } }).data.id
}

/** A shared (`site`) segment of the owner's, fresh for a row that changes or deletes it. */
async function freshSegment(w: World): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${w.siteId}/segments`,
    headers: { cookie: w.users.owner.cookie },
    payload: { name: 'matrix segment', filters: segmentFilters, visibility: 'site' },
  })
  return (response.json() as { data: { segmentId: number } }).data.segmentId
}
const segmentFilters = [{ parameter: 'pathname', type: 'equals', value: ['/'] }]

/** A valid experiment body measuring the given goal, with a key of its own. */
const experimentBody = (goalId: number) => ({
  name: 'matrix experiment',
  key: `matrix-${crypto.randomUUID()}`,
  variants: [{ name: 'A', control: true }, { name: 'B' }],
  goalId,
})

/** An experiment of the matrix's site on a fresh goal, created by its owner. */
async function freshExperiment(w: World): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${w.siteId}/experiments`,
    headers: { cookie: w.users.owner.cookie },
    payload: experimentBody(await freshGoal(w)),
  })
  return (response.json() as { data: { experimentId: number } }).data.experimentId
}

/** A one-batch recording of a new session of the matrix's site, stored directly. @returns its session id */
async function freshReplay(w: World): Promise<string> {
  const sessionId = crypto.randomUUID()
  const payload = Buffer.from(
    JSON.stringify({ site_id: w.siteId, sequence: 0, events: [{ timestamp: 1000 }] }),
  )
  await w.t.services.events.insertReplay([
    {
      site_id: w.siteId,
      session_id: sessionId,
      sequence: 0,
      timestamp: new Date(1000).toISOString(),
      received_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      bytes: payload.length,
      encoding: 'json',
      payload,
    },
  ])
  return sessionId
}

/** Funnel steps for the funnel rows. */
const funnelSteps = [
  { type: 'path', pathPattern: '/' },
  { type: 'event', eventName: 'signup' },
]

/** A saved funnel of the matrix's site, created by its owner. */
async function freshFunnel(w: World): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${w.siteId}/funnels`,
    headers: { cookie: w.users.owner.cookie },
    payload: { name: 'matrix funnel', steps: funnelSteps },
  })
  return (response.json() as { data: { funnelId: number } }).data.funnelId
}

const table: Row[] = [
  {
    method: 'GET',
    url: '/api/health',
    expect: access.public(200),
    request: async () => ({ url: '/api/health' }),
  },
  {
    method: 'GET',
    url: '/api/instance',
    expect: access.public(200),
    request: async () => ({ url: '/api/instance' }),
  },
  {
    method: 'GET',
    url: '/api/auth/*',
    expect: access.public(200),
    request: async () => ({ url: '/api/auth/ok' }),
  },
  {
    method: 'POST',
    url: '/api/auth/*',
    expect: access.public(400),
    request: async () => ({ url: '/api/auth/sign-in/email', body: { email: 'x' } }),
  },
  {
    method: 'GET',
    url: '/api/mail/status',
    expect: access.public(200),
    request: async () => ({ url: '/api/mail/status' }),
  },
  {
    method: 'GET',
    url: '/*',
    // The dashboard's catch-all answers every credential alike (its pages are public: dashboard.test.ts).
    // A missing asset is 404 whether or not packages/dashboard/dist is built, so this row never depends
    // on the build (which the browser test may be writing meanwhile).
    expect: access.public(404),
    request: async () => ({ url: '/assets/matrix-missing.js' }),
  },
  {
    method: 'POST',
    url: '/api/track',
    // The key is optional here; a key of a user outside the organization is refused, and so is a key
    // whose scope does not allow tracking.
    expect: { ...access.public(200), outsider: 403, ownerReadKey: 403 },
    request: async (w) => ({
      url: '/api/track',
      body: { site_id: String(w.siteId), pathname: '/matrix' },
      headers: { origin: 'https://example.com', 'user-agent': CHROME_UA },
    }),
  },
  {
    method: 'OPTIONS',
    url: '/api/track',
    expect: access.public(204),
    request: async () => ({ url: '/api/track' }),
  },
  {
    method: 'POST',
    url: '/api/replay',
    // Keys play no part: the checks are those of a keyless tracking request (replay is off on this site).
    expect: access.public(200),
    request: async (w) => ({
      url: '/api/replay',
      body: { site_id: w.siteId, sequence: 0, events: [{ type: 4, timestamp: 1000 }] },
      headers: { origin: 'https://example.com', 'user-agent': CHROME_UA },
    }),
  },
  {
    method: 'OPTIONS',
    url: '/api/replay',
    expect: access.public(204),
    request: async () => ({ url: '/api/replay' }),
  },
  {
    method: 'GET',
    url: '/api/script.js',
    expect: access.public(200),
    request: async () => ({ url: '/api/script.js' }),
  },
  {
    method: 'GET',
    url: '/api/script-vitals.js',
    expect: access.public(200),
    request: async () => ({ url: '/api/script-vitals.js' }),
  },
  {
    method: 'GET',
    url: '/api/script-engagement.js',
    expect: access.public(200),
    request: async () => ({ url: '/api/script-engagement.js' }),
  },
  {
    method: 'GET',
    url: '/api/script-heatmap.js',
    expect: access.public(200),
    request: async () => ({ url: '/api/script-heatmap.js' }),
  },
  {
    method: 'GET',
    url: '/api/heatmap-view',
    // No credential opens it: only a signed token does (a forged one is 401 for everyone).
    expect: access.public(401),
    request: async () => ({ url: '/api/heatmap-view?token=e30.forged' }),
  },
  {
    method: 'GET',
    url: '/api/script-replay.js',
    expect: access.public(200),
    request: async () => ({ url: '/api/script-replay.js' }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/tracker-config',
    expect: access.public(200),
    request: sitePath('/tracker-config'),
  },
  {
    method: 'GET',
    url: '/api/openapi.json',
    expect: access.public(200),
    request: async () => ({ url: '/api/openapi.json' }),
  },
  {
    method: 'GET',
    url: '/api/docs',
    expect: access.public(200),
    request: async () => ({ url: '/api/docs' }),
  },
  {
    method: 'GET',
    url: '/api/organizations',
    expect: access.signedIn(200),
    request: async () => ({ url: '/api/organizations' }),
  },
  {
    method: 'POST',
    url: '/api/organizations',
    expect: access.signedIn(201),
    request: async () => ({ url: '/api/organizations', body: { name: 'Matrix org' } }),
  },
  {
    method: 'PATCH',
    url: '/api/organizations/:organizationId',
    expect: access.admin(200),
    request: async (w, as) => ({ ...(await orgPath()(w)), body: { name: `Org A (renamed as ${as})` } }),
  },
  {
    method: 'POST',
    url: '/api/organizations/:organizationId/sites',
    expect: access.admin(201),
    request: async (w) => ({
      ...(await orgPath('/sites')(w)),
      body: { name: 'm', domain: 'matrix.example' },
    }),
  },
  {
    method: 'GET',
    url: '/api/organizations/:organizationId/sites',
    expect: access.member(200),
    request: orgPath('/sites'),
  },
  {
    method: 'GET',
    url: '/api/organizations/:organizationId/members',
    expect: access.member(200),
    request: orgPath('/members'),
  },
  {
    method: 'POST',
    url: '/api/organizations/:organizationId/members',
    expect: access.admin(201),
    request: async (w) => {
      const user = await w.t.signUp()
      const { email } = await w.t.services.metadata.db
        .selectFrom('user')
        .select('email')
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow()
      return { ...(await orgPath('/members')(w)), body: { email, role: 'member' } }
    },
  },
  {
    method: 'PATCH',
    url: '/api/organizations/:organizationId/members/:userId',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await orgPath(`/members/${await w.t.newMember(w.organizationId)}`)(w)),
      body: { role: 'admin' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/organizations/:organizationId/members/:userId',
    expect: access.admin(200),
    request: async (w) => orgPath(`/members/${await w.t.newMember(w.organizationId)}`)(w),
  },
  {
    method: 'GET',
    url: '/api/organizations/:organizationId/audit-log',
    expect: access.admin(200),
    request: orgPath('/audit-log'),
  },
  { method: 'GET', url: '/api/sites/:siteId', expect: access.member(200), request: sitePath() },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId',
    expect: access.admin(200),
    // The name only: the tracking row's Origin must keep matching the site's domain.
    request: async (w, as) => ({
      ...(await sitePath()(w)),
      body: { name: `Matrix site (renamed as ${as})` },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId',
    expect: access.admin(200),
    request: async (w) => ({ url: `/api/sites/${await freshSite(w)}` }),
  },
  {
    method: 'PUT',
    url: '/api/sites/:siteId/config',
    expect: access.admin(200),
    request: async (w) => ({ ...(await sitePath('/config')(w)), body: { trackErrors: true } }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/excluded-ips',
    expect: access.member(200),
    request: sitePath('/excluded-ips'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/excluded-countries',
    expect: access.member(200),
    request: sitePath('/excluded-countries'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/private-link-config',
    expect: access.member(200),
    request: sitePath('/private-link-config'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/private-link-config',
    expect: access.admin(200),
    // A fresh site: regenerating the shared site's key would invalidate the matrix's own key.
    request: async (w) => ({
      url: `/api/sites/${await freshSite(w)}/private-link-config`,
      body: { action: 'generate_private_link_key' },
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/has-events',
    expect: access.member(200),
    request: sitePath('/has-events'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/audit-log',
    expect: access.admin(200),
    request: sitePath('/audit-log'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/alerts',
    expect: access.admin(201),
    request: async (w) => ({
      ...(await sitePath('/alerts')(w)),
      body: { name: 'm', metric: 'pageviews', windowMinutes: 60, comparison: 'above', threshold: 10 },
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/alerts',
    expect: access.admin(200),
    request: sitePath('/alerts'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/alerts/:id',
    expect: access.admin(200),
    request: async (w) => sitePath(`/alerts/${w.alertId}`)(w),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/alerts/:id',
    expect: access.admin(200),
    request: async (w) => ({ ...(await sitePath(`/alerts/${w.alertId}`)(w)), body: { threshold: 20 } }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/alerts/:id',
    expect: access.admin(200),
    request: async (w) => {
      const rule = await w.t.services.alerts.rules.create(w.siteId, w.users.owner.userId, {
        name: 'doomed',
        metric: 'errors',
        windowMinutes: 60,
        comparison: 'above',
        threshold: 1,
      })
      return sitePath(`/alerts/${rule.id}`)(w)
    },
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/email-reports',
    // The matrix's instance sends no e-mail: whoever passes the access check is told so (503).
    expect: access.admin(503),
    request: async (w) => ({
      ...(await sitePath('/email-reports')(w)),
      body: { recipients: ['matrix@example.com'], frequency: 'weekly' },
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/email-reports',
    expect: access.member(200),
    request: sitePath('/email-reports'),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/email-reports/:id',
    expect: access.admin(503),
    request: async (w) => ({
      ...(await sitePath(`/email-reports/${(await freshEmailReport(w)).id}`)(w)),
      body: { frequency: 'monthly' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/email-reports/:id',
    expect: access.admin(200),
    request: async (w) => sitePath(`/email-reports/${(await freshEmailReport(w)).id}`)(w),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/email-reports/:id/send',
    expect: access.admin(503),
    request: async (w) => sitePath(`/email-reports/${(await freshEmailReport(w)).id}/send`)(w),
  },
  {
    method: 'GET',
    url: '/api/email-reports/subscriptions/:token',
    // The token is the credential: whoever holds it, signed in or not.
    expect: access.public(200),
    request: async (w) => ({ url: `/api/email-reports/subscriptions/${(await freshEmailReport(w)).token}` }),
  },
  {
    method: 'POST',
    url: '/api/email-reports/subscriptions/:token/confirm',
    expect: access.public(200),
    request: async (w) => ({
      url: `/api/email-reports/subscriptions/${(await freshEmailReport(w)).token}/confirm`,
    }),
  },
  {
    method: 'POST',
    url: '/api/email-reports/subscriptions/:token/unsubscribe',
    expect: access.public(200),
    request: async (w) => ({
      url: `/api/email-reports/subscriptions/${(await freshEmailReport(w)).token}/unsubscribe`,
    }),
  },
  {
    method: 'GET',
    url: '/api/alerts/subscriptions/:token',
    // The token is the credential: whoever holds it, signed in or not.
    expect: access.public(200),
    request: async (w) => ({ url: `/api/alerts/subscriptions/${await freshAlertRecipient(w)}` }),
  },
  {
    method: 'POST',
    url: '/api/alerts/subscriptions/:token/confirm',
    expect: access.public(200),
    request: async (w) => ({ url: `/api/alerts/subscriptions/${await freshAlertRecipient(w)}/confirm` }),
  },
  {
    method: 'POST',
    url: '/api/alerts/subscriptions/:token/unsubscribe',
    expect: access.public(200),
    request: async (w) => ({ url: `/api/alerts/subscriptions/${await freshAlertRecipient(w)}/unsubscribe` }),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/webhooks',
    expect: access.admin(201),
    request: async (w) => ({
      ...(await sitePath('/webhooks')(w)),
      body: { url: 'https://hooks.example.com/in', events: ['session.created'] },
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/webhooks',
    expect: access.admin(200),
    request: sitePath('/webhooks'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/webhooks/:id',
    expect: access.admin(200),
    request: async (w) => sitePath(`/webhooks/${w.webhookId}`)(w),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/webhooks/:id',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath(`/webhooks/${w.webhookId}`)(w)),
      body: { description: 'matrix' },
    }),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/webhooks/:id/rotate-secret',
    expect: access.admin(200),
    request: async (w) => sitePath(`/webhooks/${w.webhookId}/rotate-secret`)(w),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/webhooks/:id',
    expect: access.admin(200),
    request: async (w) => {
      const created = await w.t.services.webhooks.create(w.siteId, w.users.owner.userId, {
        url: 'https://hooks.example.com/doomed',
        events: ['event.tracked'],
      })
      return sitePath(`/webhooks/${created.id}`)(w)
    },
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/webhooks/:id/deliveries',
    expect: access.admin(200),
    request: async (w) => sitePath(`/webhooks/${w.webhookId}/deliveries`)(w),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/webhooks/:id/deliveries/:deliveryId/redeliver',
    expect: access.admin(202),
    request: async (w) => sitePath(`/webhooks/${w.webhookId}/deliveries/${w.deliveryId}/redeliver`)(w),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/import',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath('/import')(w)),
      body: { timestamp: '2026-01-01T10:00:00Z', pathname: '/matrix' },
      headers: { 'content-type': 'application/x-ndjson' },
    }),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/logs',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath('/logs')(w)),
      body: '66.249.66.1 - - [01/Jan/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 10 "-" "Googlebot/2.1"',
      headers: { 'content-type': 'text/plain' },
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/heatmap',
    expect: access.reader(200),
    request: sitePath('/heatmap?page=%2Fpricing&start_date=2026-01-01&end_date=2026-01-02'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/heatmap-link',
    expect: access.reader(200),
    request: sitePath('/heatmap-link?page=%2Fpricing'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/crawlers',
    expect: access.reader(200),
    request: sitePath('/crawlers?start_date=2026-01-01&end_date=2026-01-02'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/export',
    expect: access.reader(200),
    request: sitePath('/export?start_date=2026-01-01&end_date=2026-01-02'),
  },
  // A visitor's data: admins and owners, and never with a `read` key (personal data).
  {
    method: 'GET',
    url: '/api/sites/:siteId/users/:userId/export',
    expect: { ...access.admin(200), ownerReadKey: 403 },
    request: sitePath('/users/matrix-user/export'),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/users/:userId',
    expect: access.admin(200),
    request: sitePath('/users/matrix-user'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/visitors/:visitorId/export',
    expect: { ...access.admin(200), ownerReadKey: 403 },
    request: sitePath('/visitors/0123456789abcdef/export'),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/visitors/:visitorId',
    expect: access.admin(200),
    request: sitePath('/visitors/0123456789abcdef'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/goals',
    expect: access.reader(200),
    request: sitePath('/goals'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/goals',
    expect: access.admin(201),
    request: async (w) => ({
      ...(await sitePath('/goals')(w)),
      body: { name: 'm', goalType: 'event', config: { eventName: 'signup' } },
    }),
  },
  {
    method: 'PUT',
    url: '/api/sites/:siteId/goals/:goalId',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath(`/goals/${await freshGoal(w)}`)(w)),
      body: { name: 'renamed' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/goals/:goalId',
    expect: access.admin(200),
    request: async (w) => sitePath(`/goals/${await freshGoal(w)}`)(w),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/goals/:goalId/sessions',
    expect: access.reader(200),
    request: async (w) => sitePath(`/goals/${await freshGoal(w)}/sessions`)(w),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/properties',
    expect: access.reader(200),
    request: sitePath('/properties'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/breakdown/properties',
    expect: access.reader(200),
    request: sitePath('/breakdown/properties?property=plan'),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/heatmap',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/heatmap?page=%2Fpricing` }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/crawlers',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/crawlers` }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/properties',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/properties` }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/breakdown/properties',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/breakdown/properties?property=plan` }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/annotations',
    expect: access.reader(200),
    request: sitePath('/annotations'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/annotations',
    expect: access.admin(201),
    request: async (w) => ({
      ...(await sitePath('/annotations')(w)),
      body: { date: '2026-01-02', text: 'm' },
    }),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/annotations/:id',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath(`/annotations/${await freshAnnotation(w)}`)(w)),
      body: { text: 'changed' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/annotations/:id',
    expect: access.admin(200),
    request: async (w) => sitePath(`/annotations/${await freshAnnotation(w)}`)(w),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/annotations',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/annotations` }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/segments',
    expect: access.reader(200),
    request: sitePath('/segments'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/segments',
    expect: access.member(201),
    request: async (w) => ({
      ...(await sitePath('/segments')(w)),
      body: { name: 'm', filters: segmentFilters, visibility: 'personal' },
    }),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/segments/:segmentId',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath(`/segments/${await freshSegment(w)}`)(w)),
      body: { name: 'renamed' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/segments/:segmentId',
    expect: access.admin(200),
    request: async (w) => sitePath(`/segments/${await freshSegment(w)}`)(w),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/funnels/query',
    expect: { ...access.reader(200), ownerReadKey: 200 },
    request: async (w) => ({ ...(await sitePath('/funnels/query')(w)), body: { steps: funnelSteps } }),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/funnels/sessions',
    expect: { ...access.reader(200), ownerReadKey: 200 },
    request: async (w) => ({
      ...(await sitePath('/funnels/sessions?step=1')(w)),
      body: { steps: funnelSteps },
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/funnels',
    expect: access.member(200),
    request: sitePath('/funnels'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/funnels',
    expect: access.admin(201),
    request: async (w) => ({ ...(await sitePath('/funnels')(w)), body: { name: 'm', steps: funnelSteps } }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/funnels/:funnelId',
    expect: access.member(200),
    request: async (w) => sitePath(`/funnels/${await freshFunnel(w)}`)(w),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/funnels/:funnelId/sessions',
    expect: access.member(200),
    request: async (w) => sitePath(`/funnels/${await freshFunnel(w)}/sessions?step=2`)(w),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/funnels/:funnelId',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath(`/funnels/${await freshFunnel(w)}`)(w)),
      body: { name: 'renamed' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/funnels/:funnelId',
    expect: access.admin(200),
    request: async (w) => sitePath(`/funnels/${await freshFunnel(w)}`)(w),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/experiments',
    expect: access.admin(201),
    request: async (w) => ({
      ...(await sitePath('/experiments')(w)),
      body: experimentBody(await freshGoal(w)),
    }),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/experiments',
    expect: access.member(200),
    request: sitePath('/experiments'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/experiments/:experimentId',
    expect: access.member(200),
    request: async (w) => sitePath(`/experiments/${await freshExperiment(w)}`)(w),
  },
  {
    method: 'PATCH',
    url: '/api/sites/:siteId/experiments/:experimentId',
    expect: access.admin(200),
    request: async (w) => ({
      ...(await sitePath(`/experiments/${await freshExperiment(w)}`)(w)),
      body: { status: 'running' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/experiments/:experimentId',
    expect: access.admin(200),
    request: async (w) => sitePath(`/experiments/${await freshExperiment(w)}`)(w),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/error-names',
    expect: access.reader(200),
    request: sitePath('/error-names'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/error-events',
    expect: access.reader(200),
    request: sitePath('/error-events?errorMessage=boom'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/error-bucketed',
    expect: access.reader(200),
    request: sitePath('/error-bucketed?errorMessage=boom&bucket=day'),
  },
  {
    method: 'POST',
    url: '/api/sites/:siteId/reports',
    expect: { ...access.reader(200), ownerReadKey: 200 },
    request: async (w) => ({
      ...(await sitePath('/reports')(w)),
      body: {
        reports: [{ name: 'stats' }, { name: 'breakdown', params: { name: 'pages' } }, { name: 'live' }],
      },
    }),
  },
  ...[
    'summary',
    'stats',
    'sessions',
    'events',
    'event-names',
    'web-vitals',
    'page-stats',
    'live',
    'engagement',
  ].map(
    (report): Row => ({
      method: 'GET',
      url: `/api/sites/:siteId/${report}`,
      expect: access.reader(200),
      request: sitePath(`/${report}`),
    }),
  ),
  {
    method: 'GET',
    url: '/api/sites/:siteId/series',
    expect: access.reader(200),
    request: sitePath('/series?bucket=day&metrics=visitors'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/journeys',
    expect: access.reader(200),
    request: sitePath('/journeys?steps=3&start_path=%2F'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/retention',
    expect: access.reader(200),
    request: sitePath('/retention?period=day'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/breakdown/:name',
    expect: access.reader(200),
    request: sitePath('/breakdown/pages'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/sessions/:sessionId/events',
    expect: access.reader(200),
    request: sitePath('/sessions/matrix-session/events'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/sessions/:sessionId/replay',
    expect: access.reader(200),
    request: async (w) => sitePath(`/sessions/${await freshReplay(w)}/replay`)(w),
  },
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/sessions/:sessionId/replay',
    expect: access.admin(200),
    request: async (w) => sitePath(`/sessions/${await freshReplay(w)}/replay`)(w),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/retention',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/retention?period=month` }),
  },
  {
    // The MCP server opens only to the mcp: scopes (`mcp/mcp-server.test.ts` calls its tools): every
    // key here is of another scope (403), and cookies and private link keys are no credentials (401).
    method: 'POST',
    url: '/api/mcp',
    expect: { ...access.signedIn(403), ownerSession: 401 },
    request: async () => ({
      url: '/api/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    }),
  },
  { method: 'GET', url: '/api/mcp', expect: access.public(405), request: async () => ({ url: '/api/mcp' }) },
  {
    method: 'DELETE',
    url: '/api/mcp',
    expect: access.public(405),
    request: async () => ({ url: '/api/mcp' }),
  },
  {
    method: 'GET',
    url: '/.well-known/oauth-protected-resource/api/mcp',
    expect: access.public(200),
    request: async () => ({ url: '/.well-known/oauth-protected-resource/api/mcp' }),
  },
  {
    method: 'GET',
    url: '/.well-known/oauth-protected-resource',
    expect: access.public(200),
    request: async () => ({ url: '/.well-known/oauth-protected-resource' }),
  },
  {
    method: 'GET',
    url: '/.well-known/oauth-authorization-server/api/auth',
    expect: access.public(200),
    request: async () => ({ url: '/.well-known/oauth-authorization-server/api/auth' }),
  },
  {
    method: 'GET',
    url: '/.well-known/oauth-authorization-server',
    expect: access.public(200),
    request: async () => ({ url: '/.well-known/oauth-authorization-server' }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites',
    expect: { ...access.signedIn(200), ownerSession: 401 },
    request: async () => ({ url: '/api/v1/sites' }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/funnels',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/funnels` }),
  },
  ...['stats', 'pages', 'sessions', 'events', 'events/names', 'revenue', 'experiments', 'engagement'].map(
    (report): Row => ({
      method: 'GET',
      url: `/api/v1/sites/:siteId/${report}`,
      expect: access.v1(200),
      request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/${report}` }),
    }),
  ),
  {
    method: 'POST',
    url: '/api/user/api-keys',
    expect: access.signedIn(201),
    request: async () => ({ url: '/api/user/api-keys', body: { name: 'matrix' } }),
  },
  {
    method: 'GET',
    url: '/api/user/api-keys',
    expect: access.signedIn(200),
    request: async () => ({ url: '/api/user/api-keys' }),
  },
  {
    method: 'DELETE',
    url: '/api/user/api-keys/:id',
    // Each caller deletes a key of their own; the credential-less callers name the owner's.
    expect: access.signedIn(200),
    request: async (w, as) => {
      const self =
        as === 'outsider' || as === 'member' || as === 'admin' || as === 'owner' ? w.users[as] : w.users.owner
      const created = await w.t.services.apiKeys.create(self.userId, { name: 'doomed' })
      return { url: `/api/user/api-keys/${created.id}` }
    },
  },
  {
    method: 'GET',
    url: '/api/user/sessions',
    expect: access.session(200),
    request: async () => ({ url: '/api/user/sessions' }),
  },
  {
    method: 'DELETE',
    url: '/api/user/sessions/:id',
    // A second session of the owner's (signed in afresh) is the one revoked.
    expect: access.session(200),
    request: async (w) => {
      const signIn = await w.t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: w.ownerEmail, password: 'correct horse battery staple' },
      })
      const sessions = await w.t.app.inject({
        method: 'GET',
        url: '/api/user/sessions',
        headers: { cookie: String(signIn.headers['set-cookie']).split(';')[0] ?? '' },
      })
      const current = (sessions.json() as { data: { id: string; current: boolean }[] }).data.find(
        (s) => s.current,
      )
      return { url: `/api/user/sessions/${current?.id}` }
    },
  },
  {
    method: 'PUT',
    url: '/api/user/password',
    // A wrong current password (a right one would sign the matrix's owner session out): 400.
    expect: access.session(400),
    request: async () => ({
      url: '/api/user/password',
      body: { currentPassword: 'not the password', newPassword: 'a new password here' },
    }),
  },
  {
    method: 'GET',
    url: '/api/admin/ingest-stats',
    expect: access.instanceOwner(200),
    request: async () => ({ url: '/api/admin/ingest-stats' }),
  },
  {
    method: 'PUT',
    url: '/api/admin/sites/:siteId/limits',
    expect: access.instanceOwner(200),
    request: async (w) => ({
      url: `/api/admin/sites/${w.siteId}/limits`,
      body: { monthlyPageviewLimit: null },
    }),
  },
  {
    method: 'GET',
    url: '/api/admin/events-count',
    expect: access.instanceOwner(200),
    request: async (w) => ({ url: `/api/admin/events-count?site_id=${w.siteId}` }),
  },
  {
    method: 'GET',
    url: '/api/admin/mail',
    expect: access.instanceOwner(200),
    request: async () => ({ url: '/api/admin/mail' }),
  },
  {
    method: 'POST',
    url: '/api/admin/mail/:mailId/retry',
    expect: access.instanceOwner(200),
    request: async (w) => ({ url: `/api/admin/mail/${await failedMail(w)}/retry` }),
  },
  {
    method: 'POST',
    url: '/api/organizations/:organizationId/invitations',
    // The matrix's instance sends no e-mail: whoever passes the access check is told so (503).
    expect: access.admin(503),
    request: async (w) => ({
      ...(await orgPath('/invitations')(w)),
      body: { email: 'matrix-invitee@example.com', role: 'member' },
    }),
  },
  {
    method: 'GET',
    url: '/api/organizations/:organizationId/invitations',
    expect: access.admin(200),
    request: orgPath('/invitations'),
  },
  {
    method: 'DELETE',
    url: '/api/organizations/:organizationId/invitations/:invitationId',
    expect: access.admin(200),
    request: async (w) => {
      const { id } = await matrixInvitation(w, w.organizationId, 'revoked@example.com')
      return orgPath(`/invitations/${id}`)(w)
    },
  },
  {
    method: 'GET',
    url: '/api/invitations/:token',
    // Whoever holds the link; an API key presented is still checked (a `track` key reads nothing).
    expect: { ...access.public(200), ownerTrackKey: 403 },
    // The link shows its organization to whoever holds it: one of its own, not the matrix's.
    request: async (w) => {
      const organizationId = await w.t.createOrganization(w.users.owner.cookie, 'Invitation holder')
      return {
        url: `/api/invitations/${(await matrixInvitation(w, organizationId, 'reader@example.com')).token}`,
      }
    },
  },
  {
    method: 'POST',
    url: '/api/invitations/:token/accept',
    // Each caller accepts an invitation of its own address to an organization of its own.
    expect: access.signedIn(200),
    request: async (w, as) => {
      const organizationId = await w.t.createOrganization(w.users.owner.cookie, `Invited ${as}`)
      const { token } = await matrixInvitation(w, organizationId, await emailOf(w, as))
      return { url: `/api/invitations/${token}/accept` }
    },
  },
  {
    method: 'POST',
    url: '/api/invitations/:token/decline',
    expect: { ...access.public(200), ownerTrackKey: 403, ownerReadKey: 403 },
    request: async (w) => ({
      url: `/api/invitations/${(await matrixInvitation(w, w.organizationId, 'decliner@example.com')).token}/decline`,
    }),
  },
  {
    method: 'DELETE',
    url: '/api/organizations/:organizationId/members/me',
    // Each caller leaves an organization of its own (the owner is its last owner: 409).
    expect: { ...access.member(200), owner: 409, ownerSession: 409 },
    request: async (w, as) => {
      const organizationId = await w.t.createOrganization(w.users.owner.cookie, `Left by ${as}`)
      if (as === 'member' || as === 'admin') {
        await w.t.services.metadata.db
          .insertInto('member')
          .values({
            id: crypto.randomUUID(),
            organization_id: organizationId,
            user_id: w.users[as].userId,
            role: as,
            created_at: new Date().toISOString(),
          })
          .execute()
      }
      return { url: `/api/organizations/${organizationId}/members/me` }
    },
  },
  // Rybbit's web SDK: its switches, identify and its replay batches are public, as tracking is.
  {
    method: 'GET',
    url: '/api/site/tracking-config/:siteId',
    expect: access.public(200),
    request: async (w) => ({ url: `/api/site/tracking-config/${w.siteId}` }),
  },
  {
    method: 'POST',
    url: '/api/identify',
    expect: access.public(200),
    request: async (w, as) => ({
      url: '/api/identify',
      body: { site_id: w.siteId, user_id: `matrix-identify-${as}`, traits: { plan: 'pro' } },
      headers: { origin: 'https://example.com', 'user-agent': CHROME_UA },
    }),
  },
  {
    method: 'OPTIONS',
    url: '/api/identify',
    expect: access.public(204),
    request: async () => ({ url: '/api/identify' }),
  },
  {
    method: 'POST',
    url: '/api/session-replay/record/:siteId',
    expect: access.public(200),
    request: async (w) => ({
      url: `/api/session-replay/record/${w.siteId}`,
      body: { events: [{ type: 4, timestamp: 1000, data: { href: 'https://example.com/' } }] },
      headers: { origin: 'https://example.com', 'user-agent': CHROME_UA },
    }),
  },
  {
    method: 'OPTIONS',
    url: '/api/session-replay/record/:siteId',
    expect: access.public(204),
    request: async (w) => ({ url: `/api/session-replay/record/${w.siteId}` }),
  },
  // Identified users' profiles: members of the site organization and their keys, never a private link.
  {
    method: 'GET',
    url: '/api/sites/:siteId/users',
    expect: access.member(200),
    request: sitePath('/users'),
  },
  {
    method: 'GET',
    url: '/api/sites/:siteId/users/:userId',
    expect: access.member(200),
    request: async (w) => ({ url: `/api/sites/${w.siteId}/users/${await identifiedUser(w)}` }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/users',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/users` }),
  },
  {
    method: 'GET',
    url: '/api/v1/sites/:siteId/users/:userId',
    expect: access.v1(200),
    request: async (w) => ({ url: `/api/v1/sites/${w.siteId}/users/${await identifiedUser(w)}` }),
  },
  // The Query API: v1's keys and access; a POST that reads, so a `read` key may call it.
  {
    method: 'POST',
    url: '/api/v2/query',
    expect: { ...access.v1(200), ownerReadKey: 200 },
    request: async (w) => ({
      url: '/api/v2/query',
      body: {
        site_id: w.siteId,
        metrics: ['visitors', 'pageviews'],
        date_range: ['2026-01-01', '2026-01-02'],
      },
    }),
  },
  // Imported daily totals (Plausible's export): removed by admins, as they are imported.
  {
    method: 'DELETE',
    url: '/api/sites/:siteId/import',
    expect: access.admin(200),
    request: sitePath('/import'),
  },
  // An organization's single sign-on settings: admins.
  {
    method: 'GET',
    url: '/api/organizations/:organizationId/sso',
    expect: access.admin(200),
    request: orgPath('/sso'),
  },
  {
    method: 'PUT',
    url: '/api/organizations/:organizationId/sso',
    expect: access.admin(200),
    request: async (w) => ({ ...(await orgPath('/sso')(w)), body: { ssoOnly: false } }),
  },
  // An organization's own identity provider: owners only. The PUT names an issuer that does not answer
  // discovery, so an owner gets past access to the issuer check (400 naming it).
  {
    method: 'GET',
    url: '/api/organizations/:organizationId/sso/provider',
    expect: { ...access.admin(200), admin: 403 },
    request: orgPath('/sso/provider'),
  },
  {
    method: 'PUT',
    url: '/api/organizations/:organizationId/sso/provider',
    expect: { ...access.admin(400), admin: 403 },
    request: async (w) => ({
      ...(await orgPath('/sso/provider')(w)),
      body: {
        issuer: 'http://127.0.0.1:9',
        clientId: 'pathlight',
        clientSecret: 's',
        domains: ['matrix.test'],
      },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/organizations/:organizationId/sso/provider',
    expect: { ...access.admin(200), admin: 403 },
    request: orgPath('/sso/provider'),
  },
]

/** A user id the site has a profile for (identified once through `POST /api/identify`). */
async function identifiedUser(w: World): Promise<string> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: '/api/identify',
    payload: { site_id: w.siteId, user_id: 'matrix-profile', traits: { plan: 'team' } },
    headers: { origin: 'https://example.com', 'user-agent': CHROME_UA },
  })
  expect(response.statusCode).toBe(200)
  return 'matrix-profile'
}
/** A failed message of the outbox, stored directly (for the retry route). @returns its id */
async function failedMail(w: World): Promise<string> {
  const id = crypto.randomUUID()
  const at = new Date().toISOString()
  await w.t.services.metadata.db
    .insertInto('mail_message')
    .values({
      id,
      kind: 'test',
      recipient: 'someone@example.com',
      subject: 'matrix',
      html: '<p>matrix</p>',
      text: 'matrix',
      headers: '{}',
      status: 'failed',
      attempts: 8,
      next_attempt_at: at,
      locked_until: null,
      last_error: '550 No such mailbox',
      created_at: at,
      sent_at: null,
    })
    .execute()
  return id
}

/** A pending invitation stored directly (the matrix sends no e-mail); its token is the link's. */
async function matrixInvitation(w: World, organizationId: string, email: string) {
  const token = crypto.randomBytes(32).toString('base64url')
  const id = crypto.randomUUID()
  const now = Date.now()
  await w.t.services.metadata.db
    .insertInto('invitation')
    .values({
      id,
      organization_id: organizationId,
      email,
      role: 'member',
      token_hash: crypto.createHash('sha256').update(token).digest('hex'),
      invited_by: w.users.owner.userId,
      status: 'pending',
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 86_400_000).toISOString(),
      ended_at: null,
    })
    .execute()
  return { id, token }
}

/** The address of the account behind a credential (the owner's for its keys and session). */
async function emailOf(w: World, as: Credential): Promise<string> {
  const user = as === 'outsider' || as === 'member' || as === 'admin' ? w.users[as] : w.users.owner
  const row = await w.t.services.metadata.db
    .selectFrom('user')
    .select('email')
    .where('id', '=', user.userId)
    .executeTakeFirstOrThrow()
  return row.email
}

function headersFor(w: World, as: Credential): Record<string, string> {
  switch (as) {
    case 'none':
      return {}
    case 'outsider':
    case 'member':
    case 'admin':
    case 'owner':
      return { authorization: `Bearer ${w.users[as].key}` }
    case 'ownerTrackKey':
      return { authorization: `Bearer ${w.ownerTrackKey}` }
    case 'ownerReadKey':
      return { authorization: `Bearer ${w.ownerReadKey}` }
    case 'ownerSession':
      return { cookie: w.users.owner.cookie }
    case 'privateKey':
      return { 'x-private-key': w.privateKey }
    case 'otherSitePrivateKey':
      return { 'x-private-key': w.otherSitePrivateKey }
    case 'revokedPrivateKey':
      return { 'x-private-key': w.revokedPrivateKey }
  }
}

describe.each([
  ['SQLite + chDB', false],
  ['PostgreSQL + chDB', true],
])('authorization matrix on %s', (_name, postgres) => {
  let w: World

  beforeAll(async () => {
    // Workers off: the matrix's deliveries must not be sent to the (unreachable) example host.
    // (and WEBHOOKS_ALLOW_PRIVATE skips DNS for their made-up host: this machine has no resolver).
    // The throttle's limit raised: the matrix signs in with a wrong password as every credential.
    const t = await openTestInstance({
      postgres,
      workers: false,
      // Every route is called with each key: far more than an API key's request budget of a minute.
      env: {
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        AUTH_THROTTLE_ACCOUNT_MAX: '1000',
        PATHLIGHT_V1_LIMIT: '100000',
      },
    })
    const user = async () => {
      const u = await t.signUp()
      return { ...u, key: await t.createApiKey(u.cookie) }
    }
    const owner = await user() // the first account: also the instance owner
    const admin = await user()
    const member = await user()
    const outsider = await user()
    const organizationId = await t.createOrganization(owner.cookie, 'Org A')
    const site = await t.createSite(owner.cookie, organizationId, 'example.com')
    for (const [u, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      const { email } = await t.services.metadata.db
        .selectFrom('user')
        .select('email')
        .where('id', '=', u.userId)
        .executeTakeFirstOrThrow()
      const added = await t.app.inject({
        method: 'POST',
        url: `/api/organizations/${organizationId}/members`,
        headers: { cookie: owner.cookie },
        payload: { email, role },
      })
      expect(added.statusCode).toBe(201)
    }
    const otherOrg = await t.createOrganization(outsider.cookie, 'Org B secret name')
    const otherSite = await t.createSite(outsider.cookie, otherOrg, 'other-secret.example')
    const keyOf = async (siteId: number, cookie: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/sites/${siteId}/private-link-config`,
          headers: { cookie },
          payload: { action: 'generate_private_link_key' },
        })
      ).json().data.privateLinkKey as string
    const revokedPrivateKey = await keyOf(site.siteId, owner.cookie)
    const privateKey = await keyOf(site.siteId, owner.cookie)
    const otherSitePrivateKey = await keyOf(otherSite.siteId, outsider.cookie)
    const webhook = await t.services.webhooks.create(site.siteId, owner.userId, {
      url: 'https://hooks.example.com/matrix',
      events: ['session.created'],
    })
    await t.services.outbox.enqueue(site.siteId, 'session.created', { sessionId: 'matrix' })
    const delivery = await t.services.metadata.db
      .selectFrom('webhook_delivery')
      .select('id')
      .where('webhook_id', '=', webhook.id)
      .executeTakeFirstOrThrow()
    const alert = await t.services.alerts.rules.create(site.siteId, owner.userId, {
      name: 'matrix',
      metric: 'pageviews',
      windowMinutes: 60,
      comparison: 'above',
      threshold: 100,
    })
    const scopedKey = async (scope: 'track' | 'read') =>
      (await t.services.apiKeys.create(owner.userId, { name: scope, scope })).key
    const { email: ownerEmail } = await t.services.metadata.db
      .selectFrom('user')
      .select('email')
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow()
    w = {
      t,
      ownerTrackKey: await scopedKey('track'),
      ownerReadKey: await scopedKey('read'),
      ownerEmail,
      alertId: alert.id,
      webhookId: webhook.id,
      deliveryId: delivery.id,
      organizationId,
      siteId: site.siteId,
      users: { owner, admin, member, outsider },
      privateKey,
      otherSitePrivateKey,
      revokedPrivateKey,
      otherOrgSecrets: [otherOrg, 'Org B secret name', 'other-secret.example', otherSite.id],
    }
  })
  afterAll(() => w.t.close())

  it('covers every registered route', () => {
    const registered = w.t.app.routeList.map((r) => `${r.method} ${r.url}`).sort()
    const covered = table.map((r) => `${r.method} ${r.url}`).sort()
    expect(covered).toEqual(registered)
  })

  describe.each(table.map((row) => [`${row.method} ${row.url}`, row] as const))('%s', (_label, row) => {
    it.each(credentials.map((c) => [c, statusOf(row, c)] as const))('as %s: %i', async (as, status) => {
      const request = await row.request(w, as)
      const response = await w.t.app.inject({
        method: row.method as 'GET',
        url: request.url,
        headers: {
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
          ...headersFor(w, as),
        },
        ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
      })
      expect(response.statusCode, response.body).toBe(status)
      if (as !== 'outsider') {
        for (const secret of w.otherOrgSecrets) expect(response.body).not.toContain(secret)
      } else {
        expect(response.body).not.toContain(w.organizationId)
      }
    })
  })
})
