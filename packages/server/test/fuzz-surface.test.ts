/**
 * The fuzzed surface: every operation of the OpenAPI document, called with every
 * kind of credential (`credentials`), on SQLite + chDB and on PostgreSQL + chDB, with hostile parameters
 * and bodies drawn by fast-check (`testing/hostile-values.ts`, `testing/openapi-requests.ts`): one bad
 * field at a time in an otherwise valid request (so that validation past the first field is reached),
 * or everything bad at once. Every answer must be below 500 and quick, and an error answer must show no
 * SQL, store error or stack trace. Afterwards the server must be healthy, track a pageview and report it.
 *
 * Environment (all optional):
 *   FUZZ_RUNS     requests per operation and credential on each store (default: 3 on SQLite, 1 on
 *                 PostgreSQL, where the same validation runs again and only the metadata SQL differs;
 *                 `npm run fuzz` sets 200 on both)
 *   FUZZ_SEED     the base seed (default random; printed at the start and with every failure)
 *   FUZZ_PATH     with FUZZ_SEED, replay one counterexample (printed with the failure)
 *   FUZZ_STORES   `sqlite`, `postgres` or both (default `sqlite,postgres`)
 *   FUZZ_SLOW_MS  an answer slower than this fails (default 10000)
 * A failure prints the request, the answer and the command that replays it, e.g.
 *   FUZZ_SEED=123 FUZZ_PATH=4:0 npx vitest run packages/server/test/fuzz-surface.test.ts -t 'GET /api/x as ...'
 *
 * Answers are checked against the OpenAPI document too (the test instance's default): hostile input
 * reaches error paths no other test does, and an answer the document does not describe is a
 * documentation bug worth a failure here. The writes go to a site of their own and the destructive
 * runs to fresh resources, so that no run takes away what the others and the final checks rely on.
 */
import { createHash, randomBytes } from 'node:crypto'
import { MAX_JSON_DEPTH } from '@pathlight/protocol'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../src/storage/events/event-row.fixture.js'
import type { HostileJson } from '../src/testing/hostile-values.js'
import { jsonTexts, RawJson } from '../src/testing/hostile-values.js'
import {
  abbreviate,
  defaultValidRequest,
  describeRequest,
  type MISSING,
  type Mutation,
  type OperationEntry,
  operationsOf,
  type RenderedRequest,
  type RequestPlan,
  renderRequest,
  requestPlan,
  type ValidRequest,
} from '../src/testing/openapi-requests.js'
import { serviceDocument } from '../src/testing/service-document.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'
import { toExportedEvent } from '../src/transfer/exported-event.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 3)
/**
 * The default pass (no FUZZ_RUNS) fuzzes the second store with one request per cell and runs the
 * same-millisecond property on the first store only: both stores keep their events in chDB, so that
 * property would repeat the same queries. A FUZZ_RUNS given runs both stores alike.
 */
const DEEP = process.env.FUZZ_RUNS !== undefined
const runsOn = (first: boolean) => (first || DEEP ? RUNS : 1)
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31)
const PATH = process.env.FUZZ_PATH
/** Time for one cell (an operation with one credential): vitest's 30 s, or more for long runs. */
const CELL_TIMEOUT_MS = Math.max(30_000, RUNS * 1_000)
/**
 * An answer slower than this is a failure (a regex that backtracks, a query that sleeps: minutes, not
 * seconds). Well above what a normal answer takes beside two other test files on a loaded machine,
 * where a report over a fuzzed range has taken more than 3 s.
 */
const SLOW_MS = Number(process.env.FUZZ_SLOW_MS ?? 10_000)

/** The password `TestInstance.signUp` gives every account. */
const OWNER_PASSWORD = 'correct horse battery staple'

const CHROME_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

/** Resources of one site that path parameters name. */
interface SiteFixture {
  siteId: number
  goalId: number
  experimentId: number
  funnelId: number
  webhookId: string
  deliveryId: string
  alertId: string
}

interface World {
  t: TestInstance
  owner: { cookie: string; userId: string; email: string; apiKey: string; apiKeyId: string }
  /** The owner's API keys of narrower scopes (`auth/key-scope.ts`). */
  scopedKeys: { track: string; read: string }
  /** A user of another organization (with a site of its own). */
  outsider: { cookie: string; userId: string }
  organizationId: string
  /** A plain member of the organization, for the member routes. */
  memberId: string
  /** The site reads go to: it holds events, and `privateKey` is its private link key. */
  read: SiteFixture
  /** The site writes go to, so that they cannot change what reads and the final checks rely on. */
  write: SiteFixture
  privateKey: string
  /** Resources made for destructive runs and not used up yet. */
  spare: { member?: string; session?: string }
}

/**
 * The credential kinds each operation is tried with: a table, so that a new kind is one more row (and,
 * if it needs one, a credential created in `openWorld`).
 */
const credentials: {
  name: string
  headers: (w: World) => Record<string, string>
  /** Whether it may read the read site's reports (checked once more after the fuzz). */
  reads?: true
}[] = [
  { name: 'no credentials', headers: () => ({}) },
  { name: "the owner's session", headers: (w) => ({ cookie: w.owner.cookie }), reads: true },
  {
    name: "the owner's API key",
    headers: (w) => ({ authorization: `Bearer ${w.owner.apiKey}` }),
    reads: true,
  },
  {
    name: "the owner's track-scoped API key",
    headers: (w) => ({ authorization: `Bearer ${w.scopedKeys.track}` }),
  },
  {
    name: "the owner's read-scoped API key",
    headers: (w) => ({ authorization: `Bearer ${w.scopedKeys.read}` }),
    reads: true,
  },
  { name: "another organization's session", headers: (w) => ({ cookie: w.outsider.cookie }) },
  { name: 'the private link key', headers: (w) => ({ 'x-private-key': w.privateKey }), reads: true },
  {
    name: 'forged credentials',
    headers: () => ({
      authorization: "Bearer pl_' OR 1=1 --",
      cookie: `better-auth.session_token=${'%00'.repeat(100)}; better-auth.session_token=x`,
      'x-private-key': "' OR '1'='1",
    }),
  },
]

/**
 * Operations left out, and why. None so far: even the dashboard's catch-all is fuzzed in-process
 * (path traversal against its file lookup is exactly what it should withstand).
 */
const skipped: Record<string, string> = {}

/** Error bodies must not show any of these: SQL, store errors, stack traces, source positions. */
const leakPatterns = [
  /SELECT /,
  / FROM /,
  /Code: \d+/,
  /DB::Exception/,
  /SQLITE_/,
  /SqliteError/,
  /syntax error at or near/,
  /violates .* constraint/,
  /UNIQUE constraint failed/,
  /relation "[^"]*" does not exist/,
  /Stack trace/i,
  / {4}at /,
  /\bat [^\s()]+ \([^)]*:\d+:\d+\)/,
  /node_modules/,
  /\.ts:\d+/,
  /\.js:\d+:\d+/,
]

const document = await serviceDocument()
const entries = operationsOf(document).filter((entry) => !(entry.key in skipped))

/** The operations whose valid request destroys what it names: each run gets a fresh one. */
const destroys = (entry: OperationEntry) => entry.method === 'DELETE'

let w: World

/** The valid request of each operation, where the schemas alone do not give one that gets through. */
function validRequestOf(entry: OperationEntry): ValidRequest {
  const base = defaultValidRequest(entry, document.components.schemas)
  const bodies: Record<string, unknown> = {
    'POST /api/auth/{path}': { email: 'fuzz@example.com', password: 'not the password' },
    'PUT /api/organizations/{organizationId}/sso/provider': {
      issuer: 'http://127.0.0.1:9',
      clientId: 'fuzz',
      clientSecret: 'fuzz-secret',
      domains: ['fuzz.test'],
    },
    'POST /api/track': {
      site_id: String(w.read.siteId),
      pathname: '/fuzz',
      referrer: 'https://ref.example/',
    },
    'POST /api/replay': {
      site_id: w.read.siteId,
      sequence: 0,
      events: [{ type: 4, timestamp: 1_700_000_000_000, data: { href: 'https://example.com/' } }],
    },
    'POST /api/organizations/{organizationId}/sites': { name: 'Fuzz', domain: 'fuzz.example.com' },
    'POST /api/sites/{siteId}/goals': { name: 'Fuzz', goalType: 'path', config: { pathPattern: '/fuzz*' } },
    'POST /api/sites/{siteId}/experiments': {
      name: 'Fuzz',
      key: 'fuzz',
      variants: [{ name: 'A', control: true }, { name: 'B' }],
      goalId: w.write.goalId,
    },
    'POST /api/sites/{siteId}/funnels': { name: 'Fuzz', steps: FUZZ_FUNNEL_STEPS },
    'POST /api/sites/{siteId}/funnels/query': { steps: FUZZ_FUNNEL_STEPS },
    'POST /api/sites/{siteId}/funnels/sessions': { steps: FUZZ_FUNNEL_STEPS },
    'POST /api/sites/{siteId}/reports': {
      reports: [
        { name: 'stats', params: { bucket: 'day' } },
        { name: 'breakdown', params: { name: 'pages' } },
      ],
    },
    'POST /api/sites/{siteId}/webhooks': {
      url: 'https://hooks.example.com/fuzz',
      events: ['session.created'],
    },
    'PUT /api/sites/{siteId}/config': { trackErrors: true, excludedIPs: ['203.0.113.7'] },
    'PUT /api/user/password': { currentPassword: 'not the password', newPassword: 'a new password' },
    'POST /api/organizations/{organizationId}/invitations': {
      email: 'fuzz-invitee@example.com',
      role: 'member',
    },
    'POST /api/sites/{siteId}/segments': { name: 'Fuzz', filters: FUZZ_SEGMENT_FILTERS, visibility: 'site' },
    'PATCH /api/sites/{siteId}/segments/{segmentId}': { name: 'Fuzz renamed' },
    'POST /api/identify': { site_id: w.read.siteId, user_id: 'fuzz-user', traits: { plan: 'fuzz' } },
    'POST /api/v2/query': { site_id: w.read.siteId, metrics: ['visitors', 'pageviews'], date_range: '7d' },
  }
  const query: Record<string, Record<string, string>> = {
    'GET /api/admin/events-count': { site_id: String(w.read.siteId) },
    'POST /api/sites/{siteId}/funnels/sessions': { step: '1' },
    'GET /api/sites/{siteId}/funnels/{funnelId}/sessions': { step: '1' },
  }
  return {
    query: query[entry.key] ?? base.query,
    ...(entry.key in bodies
      ? { body: bodies[entry.key] }
      : base.body === undefined
        ? {}
        : { body: base.body }),
    ...(['POST /api/track', 'POST /api/replay', 'POST /api/identify'].includes(entry.key)
      ? { headers: { origin: 'https://example.com', 'user-agent': CHROME_UA } }
      : {}),
  }
}

/** The valid value of each path parameter of an operation; fresh resources for destructive ones. */
async function pathValuesOf(entry: OperationEntry): Promise<Record<string, string>> {
  const site = entry.method === 'GET' ? w.read : w.write
  const idOf = (path: string) =>
    path.includes('/alerts/') ? site.alertId : path.includes('/webhooks/') ? site.webhookId : w.owner.apiKeyId
  const values: Record<string, string> = {
    siteId: String(site.siteId),
    organizationId: w.organizationId,
    userId: w.memberId,
    goalId: String(site.goalId),
    experimentId: String(site.experimentId),
    funnelId: String(site.funnelId),
    deliveryId: site.deliveryId,
    id: idOf(entry.path),
    sessionId: 'fuzz-session',
    visitorId: '0123456789abcdef',
    name: 'pages',
    path: entry.path.startsWith('/api/auth/') ? (entry.method === 'GET' ? 'ok' : 'sign-in/email') : 'sites/1',
  }
  // An e-mail report of the site (and its recipient's link token): a fresh one, some routes delete it.
  if (entry.path.includes('/email-reports')) {
    const report = await freshEmailReport(site.siteId)
    return { ...values, id: report.id, token: report.token }
  }
  // An alert mail's link: the token of a fresh rule's outside recipient.
  if (entry.path.startsWith('/api/alerts/subscriptions/')) {
    return { ...values, token: await freshAlertRecipient(site.siteId) }
  }
  // An invitation's link: a fresh one of the owner's own address (accepting it keeps the owner's role).
  if (entry.path.startsWith('/api/invitations/')) {
    return { ...values, token: (await freshInvitation(w.organizationId, w.owner.email)).token }
  }
  // Sending a message again: a failed one of its own.
  if (entry.path.startsWith('/api/admin/mail/')) return { ...values, mailId: await failedMail() }
  // Leaving: an organization of its own with a second owner, so that the owner may leave it.
  if (entry.path.endsWith('/members/me')) {
    const organizationId = await w.t.createOrganization(w.owner.cookie, 'Fuzz leave')
    await w.t.services.metadata.db
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        user_id: w.memberId,
        role: 'owner',
        created_at: new Date().toISOString(),
      })
      .execute()
    return { ...values, organizationId }
  }
  // An annotation of the site: a fresh one (the delete runs take it away).
  if (entry.path.includes('/annotations/{id}')) return { ...values, id: await freshAnnotation(site.siteId) }
  // A saved segment of the site: a fresh one (the delete runs take it away).
  if (entry.path.includes('/segments/{segmentId}'))
    return { ...values, segmentId: await freshSegment(site.siteId) }
  // An identified user's profile: one made by identify (a profile exists only for a user id).
  if (entry.method === 'GET' && /\/users\/\{userId\}$/.test(entry.path)) {
    return { ...values, userId: await identifiedUser(site.siteId) }
  }
  // The MCP server answers only POST (stateless); removing a site's imported days when it has none
  // changes nothing, so every run may name the same site.
  // Removing an organization's identity provider when it has none changes nothing either.
  if (
    entry.path === '/api/mcp' ||
    entry.path.endsWith('/{siteId}/import') ||
    entry.path.endsWith('/sso/provider')
  )
    return values
  if (!destroys(entry)) return values
  // Erasing a visitor with no events changes nothing: every run may name the same one.
  if (/\/(users|visitors)\/\{\w+\}$/.test(entry.path) && entry.path.startsWith('/api/sites/')) return values
  if (entry.path.endsWith('/sessions/{sessionId}/replay'))
    return { ...values, sessionId: await storeReplay(w.write.siteId, crypto.randomUUID()) }
  const last = entry.path.match(/\{(\w+)\}$/)?.[1]
  switch (last === 'id' ? entry.path.split('/').at(-2) : last) {
    case 'siteId':
      return { ...values, siteId: String((await w.t.createSite(w.owner.cookie, w.organizationId)).siteId) }
    case 'userId':
      return { ...values, userId: await unusedMember() }
    case 'goalId':
      return { ...values, goalId: String(await freshGoal(w.write.siteId)) }
    case 'experimentId':
      return { ...values, experimentId: String(await freshExperiment(w.write.siteId)) }
    case 'funnelId':
      return { ...values, funnelId: String(await freshFunnel(w.write.siteId)) }
    case 'alerts':
      return { ...values, id: (await freshAlert(w.write.siteId)).id }
    case 'webhooks':
      return { ...values, id: (await freshWebhook(w.write.siteId)).id }
    case 'api-keys':
      return { ...values, id: (await w.t.services.apiKeys.create(w.owner.userId, { name: 'doomed' })).id }
    case 'sessions':
      return { ...values, id: await unusedSession() }
    case 'invitationId':
      return {
        ...values,
        invitationId: (await freshInvitation(w.organizationId, 'fuzz-invitee@example.com')).id,
      }
    default:
      throw new Error(`${entry.key}: say which fresh resource its runs delete`)
  }
}

/** A user id with a profile on `siteId`, made through `POST /api/identify`. @returns the user id */
async function identifiedUser(siteId: number): Promise<string> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: '/api/identify',
    payload: { site_id: siteId, user_id: 'fuzz-profile', traits: { plan: 'fuzz' } },
    headers: { origin: 'https://example.com', 'user-agent': CHROME_UA },
    remoteAddress: nextAddress(),
  })
  if (response.statusCode !== 200)
    throw new Error(`identify answered ${response.statusCode}: ${response.body}`)
  return 'fuzz-profile'
}

/** An annotation of the site, stored directly. @returns its id */
async function freshAnnotation(siteId: number): Promise<string> {
  const at = new Date().toISOString()
  const row = await w.t.services.metadata.db
    .insertInto('annotation')
    .values({ site_id: siteId, date: '2026-01-01', text: 'fuzz', created_at: at, updated_at: at })
    .returning('annotation_id')
    .executeTakeFirstOrThrow()
  return String(row.annotation_id)
}

/** The filters of the segments the fuzz run saves. */
const FUZZ_SEGMENT_FILTERS = [{ parameter: 'pathname', type: 'equals', value: ['/fuzz'] }]

/** A site segment stored directly, the owner's (for the change and delete routes). @returns its id */
async function freshSegment(siteId: number): Promise<string> {
  const at = new Date().toISOString()
  const row = await w.t.services.metadata.db
    .insertInto('segment')
    .values({
      site_id: siteId,
      created_by: w.owner.userId,
      name: 'fuzz',
      filters: JSON.stringify(FUZZ_SEGMENT_FILTERS),
      visibility: 'site',
      created_at: at,
      updated_at: at,
    })
    .returning('segment_id')
    .executeTakeFirstOrThrow()
  return String(row.segment_id)
}

/** Steps of the funnels the fuzz run saves and queries. */
const FUZZ_FUNNEL_STEPS = [
  { type: 'path', pathPattern: '/fuzz*' },
  { type: 'event', eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 3 },
]

async function freshFunnel(siteId: number): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/funnels`,
    headers: { cookie: w.owner.cookie },
    payload: { name: 'fuzz funnel', steps: FUZZ_FUNNEL_STEPS },
  })
  return (response.json() as { data: { funnelId: number } }).data.funnelId
}

async function freshGoal(siteId: number): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/goals`,
    headers: { cookie: w.owner.cookie },
    payload: { name: 'fuzz goal', goalType: 'event', config: { eventName: 'signup' } },
  })
  return (response.json() as { goalId: number }).goalId
}

async function freshExperiment(siteId: number): Promise<number> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/sites/${siteId}/experiments`,
    headers: { cookie: w.owner.cookie },
    payload: {
      name: 'fuzz experiment',
      key: `fuzz-${crypto.randomUUID()}`,
      variants: [{ name: 'A', control: true }, { name: 'B' }],
      goalId: await freshGoal(siteId),
    },
  })
  return (response.json() as { data: { experimentId: number } }).data.experimentId
}

const freshAlert = (siteId: number) =>
  w.t.services.alerts.rules.create(siteId, w.owner.userId, {
    name: 'fuzz',
    metric: 'pageviews',
    windowMinutes: 60,
    comparison: 'above',
    threshold: 100,
  })

/** An alert rule naming one outside address (saved without e-mail: no mail): that address's link token. */
async function freshAlertRecipient(siteId: number): Promise<string> {
  const rule = await w.t.services.alerts.rules.create(siteId, w.owner.userId, {
    name: 'fuzz mail',
    metric: 'pageviews',
    windowMinutes: 60,
    comparison: 'above',
    threshold: 100,
    emailRecipients: [`fuzz-${crypto.randomUUID()}@example.com`],
  })
  const row = await w.t.services.metadata.db
    .selectFrom('alert_recipient')
    .select('token')
    .where('rule_id', '=', rule.id)
    .executeTakeFirstOrThrow()
  return row.token
}

/** An e-mail report with one pending recipient, stored directly (the fuzzed instance sends no e-mail). */
async function freshEmailReport(siteId: number): Promise<{ id: string; token: string }> {
  const id = crypto.randomUUID()
  const token = randomBytes(24).toString('base64url')
  const at = new Date().toISOString()
  const db = w.t.services.metadata.db
  await db
    .insertInto('email_report')
    .values({
      id,
      site_id: siteId,
      frequency: 'weekly',
      time_zone: 'UTC',
      created_by: w.owner.userId,
      created_at: at,
    })
    .execute()
  await db
    .insertInto('email_report_recipient')
    .values({
      id: crypto.randomUUID(),
      report_id: id,
      email: `fuzz-${id}@example.com`,
      status: 'pending',
      token,
      created_at: at,
      confirmed_at: null,
      unsubscribed_at: null,
    })
    .execute()
  return { id, token }
}

/** A failed message of the outbox, stored directly (for the retry route). @returns its id */
async function failedMail(): Promise<string> {
  const id = crypto.randomUUID()
  const at = new Date().toISOString()
  await w.t.services.metadata.db
    .insertInto('mail_message')
    .values({
      id,
      kind: 'fuzz',
      recipient: 'someone@example.com',
      subject: 'fuzz',
      html: '<p>fuzz</p>',
      text: 'fuzz',
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

/** A pending invitation stored directly (the fuzzed instance sends no e-mail); its token is the link's. */
async function freshInvitation(
  organizationId: string,
  email: string,
): Promise<{ id: string; token: string }> {
  const token = randomBytes(32).toString('base64url')
  const id = crypto.randomUUID()
  await w.t.services.metadata.db
    .insertInto('invitation')
    .values({
      id,
      organization_id: organizationId,
      email,
      role: 'member',
      token_hash: createHash('sha256').update(token).digest('hex'),
      invited_by: w.owner.userId,
      status: 'pending',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      ended_at: null,
    })
    .execute()
  return { id, token }
}

const freshWebhook = (siteId: number) =>
  w.t.services.webhooks.create(siteId, w.owner.userId, {
    url: 'https://hooks.example.com/fuzz',
    events: ['session.created'],
  })

/**
 * A member for a run to remove, and a session of the owner for a run to revoke: the last one made while
 * no run has used it up yet, else a new one (sign-ups and sign-ins hash a password, a tenth of a second).
 */
async function unusedMember(): Promise<string> {
  const spare = w.spare.member
  if (spare !== undefined && (await isMember(spare))) return spare
  w.spare.member = await w.t.newMember(w.organizationId)
  return w.spare.member
}

async function unusedSession(): Promise<string> {
  const spare = w.spare.session
  if (spare !== undefined && (await ownerSessionIds(w.owner.cookie)).includes(spare)) return spare
  w.spare.session = await newSession()
  return w.spare.session
}

const isMember = async (userId: string) =>
  (await w.t.services.metadata.db
    .selectFrom('member')
    .select('id')
    .where('organization_id', '=', w.organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined

/** The owner's sessions, newest first. */
async function ownerSessionIds(cookie: string): Promise<string[]> {
  const listed = await w.t.app.inject({ method: 'GET', url: '/api/user/sessions', headers: { cookie } })
  return (listed.json() as { data: { id: string }[] }).data.map((session) => session.id)
}

/** A new session of the owner (signed in again). @returns its id */
async function newSession(): Promise<string> {
  const signedIn = await w.t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email: w.owner.email, password: OWNER_PASSWORD },
  })
  expect(signedIn.statusCode, signedIn.body).toBe(200)
  const cookie = String(signedIn.headers['set-cookie'] ?? '').split(';')[0] ?? ''
  const [newest] = await ownerSessionIds(cookie)
  if (!newest) throw new Error('the new session is not listed')
  return newest
}

async function siteFixture(siteId: number): Promise<SiteFixture> {
  const webhook = await freshWebhook(siteId)
  await w.t.services.outbox.enqueue(siteId, 'session.created', { sessionId: 'fuzz' })
  const delivery = await w.t.services.metadata.db
    .selectFrom('webhook_delivery')
    .select('id')
    .where('webhook_id', '=', webhook.id)
    .executeTakeFirstOrThrow()
  return {
    siteId,
    goalId: await freshGoal(siteId),
    experimentId: await freshExperiment(siteId),
    funnelId: await freshFunnel(siteId),
    webhookId: webhook.id,
    deliveryId: delivery.id,
    alertId: (await freshAlert(siteId)).id,
  }
}

/**
 * Track events of every type on the read site, so that reports run over rows rather than an empty
 * table, some of them hostile themselves (stored values are input to every report that reads them).
 */
async function trackSomeEvents(siteId: number) {
  // As deep as tracking takes (`MAX_JSON_DEPTH` levels); deeper is refused (deep-nesting.test.ts).
  const deepest = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
  const bodies = [
    { pathname: '/', referrer: 'https://news.example/' },
    { pathname: '/pricing', querystring: '?utm_source=fuzz' },
    { type: 'custom_event', pathname: '/pricing', event_name: 'signup', properties: '{"plan":"pro"}' },
    { type: 'error', pathname: '/', event_name: 'TypeError', properties: '{"message":"boom"}' },
    { type: 'performance', pathname: '/', lcp: 1200, cls: 0.1, inp: 80, fcp: 900, ttfb: 100 },
    { type: 'outbound', pathname: '/', properties: '{"url":"https://out.example/"}' },
    { type: 'custom_event', event_name: 'signup', properties: `{"a":${deepest(MAX_JSON_DEPTH - 1)}}` },
    { type: 'custom_event', event_name: 'signup', properties: jsonTexts[2] },
    {
      type: 'custom_event',
      event_name: 'experiment_exposure',
      properties: '{"experiment":"fuzz","variant":"\' OR 1=1 --"}',
    },
    {
      type: 'error',
      event_name: "'); DROP TABLE site; --",
      properties: `{"message":"boom","a":${deepest(MAX_JSON_DEPTH - 1)}}`,
    },
    {
      pathname: '/\u0000\uD800\u202E😀',
      page_title: '{site:UInt32}',
      referrer: "https://x.example/' OR 1=1 --",
    },
    { pathname: `/${'a'.repeat(2_000)}`, user_id: "' OR 1=1 --", language: '\u0000' },
  ]
  for (const body of bodies) {
    const response = await w.t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: { origin: 'https://example.com', 'user-agent': CHROME_UA, 'content-type': 'application/json' },
      payload: JSON.stringify({ site_id: String(siteId), ...body }),
    })
    expect(response.statusCode, response.body).toBe(200)
  }
  await w.t.services.buffer.flush()
}

async function openWorld(postgres: boolean): Promise<World> {
  // Workers off: nothing is delivered or evaluated behind the requests' backs. WEBHOOKS_ALLOW_PRIVATE
  // skips DNS for the made-up webhook hosts (this machine may have no resolver), so that valid webhook
  // bodies get through and one bad field reaches the validation after the URL's. Rate limits are raised
  // so that the fuzz reaches the handlers rather than the limiter.
  const t = await openTestInstance({
    postgres,
    workers: false,
    env: {
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      PATHLIGHT_V1_LIMIT: '1000000',
      PATHLIGHT_TRACK_KEY_LIMIT: '1000000',
    },
  })
  const seeded = await t.seed()
  const outsider = await t.signUp()
  const outsiderOrganization = await t.createOrganization(outsider.cookie, 'Other org')
  await t.createSite(outsider.cookie, outsiderOrganization, 'other.example')
  const keys = await t.services.apiKeys.list(seeded.userId)
  const { email } = await t.services.metadata.db
    .selectFrom('user')
    .select('email')
    .where('id', '=', seeded.userId)
    .executeTakeFirstOrThrow()
  w = {
    t,
    owner: { ...seeded, email, apiKeyId: keys[0]?.id ?? '' },
    outsider,
    organizationId: seeded.organizationId,
    memberId: '',
    scopedKeys: {
      track: (await t.services.apiKeys.create(seeded.userId, { name: 'fuzz track', scope: 'track' })).key,
      read: (await t.services.apiKeys.create(seeded.userId, { name: 'fuzz read', scope: 'read' })).key,
    },
    read: {} as SiteFixture,
    write: {} as SiteFixture,
    privateKey: '',
    spare: {},
  }
  // The seeded site is a decoy: its id and those of its resources are 1, which hostile ids such as `01`
  // and `+1` may name, so the sites and resources the fuzz relies on come after it.
  await siteFixture(seeded.site.siteId)
  const read = await t.createSite(seeded.cookie, seeded.organizationId, 'example.com')
  const write = await t.createSite(seeded.cookie, seeded.organizationId, 'example.com')
  w.memberId = await w.t.newMember(w.organizationId)
  w.read = await siteFixture(read.siteId)
  w.write = await siteFixture(write.siteId)
  const privateLink = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${read.siteId}/private-link-config`,
    headers: { cookie: seeded.cookie },
    payload: { action: 'generate_private_link_key' },
  })
  w.privateKey = (privateLink.json() as { data: { privateLinkKey: string } }).data.privateLinkKey
  // A goal on an event property: its conversions read the (partly hostile) properties JSON of events.
  const propertyGoal = await t.app.inject({
    method: 'POST',
    url: `/api/sites/${read.siteId}/goals`,
    headers: { cookie: seeded.cookie },
    payload: {
      name: 'plan',
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'a', eventPropertyValue: 1 },
    },
  })
  expect(propertyGoal.statusCode, propertyGoal.body).toBe(201)
  await trackSomeEvents(w.read.siteId)
  await storeReplay(w.read.siteId, 'fuzz-session')
  return w
}

/** Store a one-batch recording of `sessionId` directly in the events store. @returns the session id */
async function storeReplay(siteId: number, sessionId: string): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({ site_id: siteId, sequence: 0, events: [{ type: 4, timestamp: 1_700_000_000_000 }] }),
  )
  const now = new Date().toISOString()
  await w.t.services.events.insertReplay([
    {
      site_id: siteId,
      session_id: sessionId,
      sequence: 0,
      timestamp: new Date(1_700_000_000_000).toISOString(),
      received_at: now,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      bytes: payload.length,
      encoding: 'json',
      payload,
    },
  ])
  return sessionId
}

/**
 * Every string a request carries in its mutations, and its URL: an error message may echo them, and
 * that is no leak.
 */
function sentTexts(plan: RequestPlan, request: RenderedRequest): string[] {
  const out: string[] = [request.url.split('?', 1)[0] ?? '']
  const walk = (value: HostileJson | typeof MISSING) => {
    if (typeof value === 'string') out.push(value)
    else if (value instanceof RawJson) out.push(value.text, ...jsonStrings(value.text))
    else if (Array.isArray(value)) value.forEach(walk)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk)
  }
  for (const mutation of plan.mutations as Mutation[]) {
    if (mutation.in === 'query')
      out.push(...mutation.values.flatMap((value) => [value, ...jsonStrings(value)]))
    else if (mutation.in === 'path') out.push(mutation.segment)
    else if (mutation.in === 'body') walk(mutation.value)
    else out.push(mutation.payload, ...jsonStrings(mutation.payload))
  }
  return out.filter((text) => text.length >= 3)
}

/** A JSON text's value, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The strings (keys and values) in a JSON text, such as a `filters` parameter; none when it is not JSON. */
function jsonStrings(text: string): string[] {
  const stack: unknown[] = [parseJson(text)]
  const out: string[] = []
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'string') out.push(value)
    else if (Array.isArray(value)) for (const item of value) stack.push(item)
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) stack.push(key, item)
    }
  }
  return out
}

/**
 * The forms an echo of a sent text may take: as sent, JSON-escaped, percent-decoded (wholly, or run by
 * run where some escapes are malformed, or all but the reserved characters, as the router decodes paths).
 */
function echoForms(text: string): string[] {
  const decode = (run: string) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  }
  const decodeRuns = (kept: RegExp | null) =>
    text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) =>
      kept === null
        ? decode(run)
        : run
            .split(kept)
            .map((part) => (kept.test(part) ? part : decode(part)))
            .join(''),
    )
  const reserved = /(%(?:23|24|25|26|2B|2C|2F|3A|3B|3D|3F|40))/i
  const forms = new Set([text, decode(text), decodeRuns(null), decodeRuns(reserved)])
  return [...forms].flatMap((form) => [form, JSON.stringify(form).slice(1, -1)])
}

/** The body without the hostile texts it echoes. */
function withoutEchoes(body: string, sent: readonly string[]): string {
  let rest = body
  for (const text of sent) {
    for (const form of echoForms(text)) rest = rest.split(form).join('')
  }
  return rest
}

/** What is wrong with an answer to a hostile request, or null. */
function problemWith(
  entry: OperationEntry,
  response: { statusCode: number; body: string },
  ms: number,
  sent: readonly string[],
): string | null {
  if (
    response.statusCode >= 500 &&
    !(entry.key === 'GET /{path}' && dashboardUnbuilt(response)) &&
    !mailUnconfigured(response)
  ) {
    return `answered ${response.statusCode}`
  }
  if (ms > SLOW_MS) return `took ${Math.round(ms)} ms (more than FUZZ_SLOW_MS=${SLOW_MS})`
  if (response.statusCode >= 400) {
    const body = withoutEchoes(response.body, sent)
    const leak = leakPatterns.find((pattern) => pattern.test(body))
    if (leak) return `error body leaks internals (${leak})`
  }
  return null
}

/** The dashboard's catch-all answers 503 by design while packages/dashboard/dist is not built. */
const dashboardUnbuilt = (response: { statusCode: number; body: string }) =>
  response.statusCode === 503 && response.body.includes('dashboard has not been built')

/** Features that send e-mail answer 503 by design while SMTP_URL is unset (`mail/mail-settings.ts`). */
const mailUnconfigured = (response: { statusCode: number; body: string }) =>
  response.statusCode === 503 && response.body.includes('E-mail is not configured: set SMTP_URL')

/** The owner's credential an operation takes: the session cookie, or an API key where only one will do. */
const ownerHeaders = (entry: OperationEntry): Record<string, string> =>
  entry.operation.security.some((requirement) => 'session' in requirement)
    ? { cookie: w.owner.cookie }
    : { authorization: `Bearer ${w.owner.apiKey}` }

let addresses = 0
/**
 * A client address of its own for each request (from 198.18.0.0/15, the benchmarking range), so that the
 * authentication throttle, which counts failures per address, does not turn the rest of the run into 429s.
 */
const nextAddress = () => {
  const n = addresses++
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`
}

/** A seed per cell, derived from SEED, so that one FUZZ_SEED replays every cell. */
function seedOf(cell: string): number {
  let hash = SEED
  for (const char of cell) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193)
  return hash | 0
}

/** Status counts of every answer, printed after each store's run to show how deep the fuzz got. */
const statuses = new Map<number, number>()

/** A vitest `-t` pattern that matches exactly this text. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The metadata stores to fuzz on: both, or those FUZZ_STORES names (`sqlite`, `postgres`). */
const wantedStores = (process.env.FUZZ_STORES ?? 'sqlite,postgres').toLowerCase().split(',')
const stores = (
  [
    ['SQLite + chDB', false, 'sqlite'],
    ['PostgreSQL + chDB', true, 'postgres'],
  ] as const
).filter(([, , key]) => wantedStores.includes(key))

describe.each(stores)('fuzzed surface on %s', (store, postgres) => {
  const first = store === stores[0]?.[0]
  const runs = runsOn(first)
  beforeAll(async () => {
    statuses.clear()
    await openWorld(postgres)
    console.log(`fuzzed surface on ${store}: FUZZ_SEED=${SEED} FUZZ_RUNS=${runs}`)
  }, 120_000)

  afterAll(async () => {
    const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`)
    console.log(`fuzzed surface on ${store}: answers by status: ${counts.join(', ')}`)
    await w?.t.close()
  })

  describe('the valid request of each operation', () => {
    // Sanity of the fixtures: a valid request the owner sends must get through, or the fuzz's "one bad
    // field" would be refused for another field and never reach the one it made bad.
    const refusedByDesign: Record<string, number> = {
      'POST /api/auth/{path}': 401, // a sign-in with a wrong password
      'POST /api/organizations/{organizationId}/members': 404, // fuzz@example.com has no account
      'PUT /api/user/password': 400, // a wrong current password
      'POST /api/organizations/{organizationId}/invitations': 503, // the fuzzed instance sends no e-mail
      'POST /api/sites/{siteId}/email-reports': 503, // likewise
      'PATCH /api/sites/{siteId}/email-reports/{id}': 503,
      'POST /api/sites/{siteId}/email-reports/{id}/send': 503,
      'POST /api/mcp': 403, // the owner's key is `full`: only the mcp: scopes open the MCP server
      'GET /api/mcp': 405, // stateless: messages are POSTed, no stream to open or session to end
      'DELETE /api/mcp': 405,
      // The issuer is on loopback, refused at saving (SSO_ALLOW_PRIVATE_ISSUERS is off), after every other field.
      'PUT /api/organizations/{organizationId}/sso/provider': 400,
      'GET /api/heatmap-view': 401, // a made-up token: only a signed viewing link's opens it
    }
    it.each(entries.map((entry) => [entry.key, entry] as const))('%s', async (key, entry) => {
      const valid = validRequestOf(entry)
      const values = await pathValuesOf(entry)
      const request = renderRequest(entry, valid, { mutations: [] }, values, ownerHeaders(entry))
      const response = await w.t.app.inject({ ...request, remoteAddress: nextAddress() })
      const expected = refusedByDesign[key]
      if (expected !== undefined) expect(response.statusCode, response.body).toBe(expected)
      else expect(response.statusCode, `${describeRequest(request)}\n${response.body}`).toBeLessThan(400)
    })
  })

  describe.each(entries.map((entry) => [entry.key, entry] as const))('%s', (key, entry) => {
    it.each(credentials.map((credential) => [credential.name, credential] as const))(
      'as %s',
      async (name, credential) => {
        const valid = validRequestOf(entry)
        const plans = fc.limitShrink(requestPlan(entry, valid, document.components.schemas), 40)
        let last: { request: RenderedRequest; status: number; body: string } | undefined
        const property = fc.asyncProperty(plans, async (plan) => {
          const request = renderRequest(entry, valid, plan, await pathValuesOf(entry), credential.headers(w))
          const started = performance.now()
          const response = await w.t.app.inject({ ...request, remoteAddress: nextAddress() })
          const ms = performance.now() - started
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
          const problem = problemWith(entry, response, ms, sentTexts(plan, request))
          if (problem !== null) {
            last = { request, status: response.statusCode, body: response.body }
            throw new Error(problem)
          }
        })
        const cell = `${store} ${key} as ${name}`
        const details = await fc.check(property, {
          seed: seedOf(cell),
          numRuns: runs,
          ...(PATH ? { path: PATH } : {}),
        })
        if (!details.failed) return
        const error =
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance)
        throw new Error(
          [
            `${cell}: ${abbreviate(error, 1_000)}`,
            last ? describeRequest(last.request) : '(no request)',
            last ? `-> ${last.status} ${abbreviate(last.body, 1_000)}` : '',
            `replay: FUZZ_SEED=${SEED} FUZZ_PATH=${details.counterexamplePath} npx vitest run ` +
              `packages/server/test/fuzz-surface.test.ts -t ${JSON.stringify(literally(`${key} as ${name}`))}`,
          ].join('\n'),
        )
      },
      CELL_TIMEOUT_MS,
    )
  })

  // Only where `runsOn` says (see DEEP): registered or not, not skipped.
  if (first || DEEP)
    describe('events of a session on the same millisecond', () => {
      // Any ids, any storage order: the rollups and raw events (a no-op filter) name the pages that come
      // first and last by (timestamp, event id), as sorting the events here does.
      const pages = ['/', '/a', '/b', '/c'] as const
      const sessions = fc.array(
        fc.array(fc.record({ second: fc.nat(3), page: fc.constantFrom(...pages), id: fc.uuid() }), {
          minLength: 1,
          maxLength: 6,
        }),
        { minLength: 1, maxLength: 8 },
      )
      it(
        'name the same entry and exit pages rolled and raw, whatever the ids',
        async () => {
          const site = await w.t.createSite(w.owner.cookie, w.organizationId, 'ties.example.com')
          let run = 0
          const property = fc.asyncProperty(sessions, async (drawn) => {
            const ids = drawn.flat().map((event) => event.id.toLowerCase())
            fc.pre(new Set(ids).size === ids.length)
            // A day of its own per run (the site keeps every run's events).
            const day = new Date(Date.UTC(2026, 0, 1 + run++)).toISOString().slice(0, 10)
            const rows = drawn.flatMap((events, s) =>
              events.map((event) =>
                eventRow({
                  event_id: event.id.toLowerCase(),
                  site_id: site.siteId,
                  session_id: `ties-${day}-${s}`,
                  user_id: `visitor-${s}`,
                  timestamp: `${day}T10:00:0${event.second}.000Z`,
                  pathname: event.page,
                }),
              ),
            )
            const imported = await w.t.app.inject({
              method: 'POST',
              url: `/api/sites/${site.siteId}/import`,
              headers: { cookie: w.owner.cookie, 'content-type': 'application/x-ndjson' },
              payload: rows.map((row) => JSON.stringify(toExportedEvent(row))).join('\n'),
              remoteAddress: nextAddress(),
            })
            expect(imported.statusCode, imported.body).toBe(200)
            const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
            const ordered = drawn.map((_, s) =>
              rows
                .filter((row) => row.session_id === `ties-${day}-${s}`)
                .sort((a, b) => byText(a.timestamp, b.timestamp) || byText(a.event_id, b.event_id)),
            )
            const count = (values: string[]) => {
              const counts: Record<string, number> = {}
              for (const value of values) counts[value] = (counts[value] ?? 0) + 1
              return counts
            }
            const expected = {
              entry_pages: count(ordered.map((events) => String(events[0]?.pathname))),
              exit_pages: count(ordered.map((events) => String(events.at(-1)?.pathname))),
            }
            const noOp = encodeURIComponent(
              JSON.stringify([{ parameter: 'hostname', type: 'equals', value: ['example.com'] }]),
            )
            for (const name of ['entry_pages', 'exit_pages'] as const) {
              for (const filters of ['', `&filters=${noOp}`]) {
                const response = await w.t.app.inject({
                  method: 'GET',
                  url: `/api/sites/${site.siteId}/breakdown/${name}?start_date=${day}&end_date=${day}${filters}`,
                  headers: { cookie: w.owner.cookie },
                  remoteAddress: nextAddress(),
                })
                expect(response.statusCode, response.body).toBe(200)
                const data = (response.json() as { data: { value: string; sessions: number }[] }).data
                const got = Object.fromEntries(data.map((row) => [row.value, row.sessions]))
                expect(got, `${name}${filters ? ' (raw)' : ''} on ${day}`).toEqual(expected[name])
              }
            }
          })
          await fc.assert(property, {
            seed: seedOf('ties'),
            numRuns: Math.max(RUNS, 5),
            ...(PATH ? { path: PATH } : {}),
          })
        },
        CELL_TIMEOUT_MS,
      )
    })

  describe('afterwards', () => {
    it('is healthy, tracks a pageview and reports it', async () => {
      const health = await w.t.app.inject({ method: 'GET', url: '/api/health' })
      expect(health.statusCode, health.body).toBe(200)

      await w.t.services.buffer.flush()
      const before = await pageviews()
      const tracked = await w.t.app.inject({
        method: 'POST',
        url: '/api/track',
        headers: {
          origin: 'https://example.com',
          'user-agent': CHROME_UA,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ site_id: String(w.read.siteId), pathname: '/after-the-fuzz' }),
      })
      expect(tracked.statusCode, tracked.body).toBe(200)
      await w.t.services.buffer.flush()
      expect(await pageviews()).toBe(before + 1)

      for (const credential of credentials.filter((c) => c.reads)) {
        const summary = await w.t.app.inject({
          method: 'GET',
          url: `/api/sites/${w.read.siteId}/summary`,
          headers: credential.headers(w),
        })
        expect(summary.statusCode, `${credential.name}: ${summary.body}`).toBe(200)
      }
    })
  })
})

/** Pageviews of the read site today, from the v1 stats report. */
async function pageviews(): Promise<number> {
  const response = await w.t.app.inject({
    method: 'GET',
    url: `/api/v1/sites/${w.read.siteId}/stats`,
    headers: { authorization: `Bearer ${w.owner.apiKey}` },
  })
  expect(response.statusCode, response.body).toBe(200)
  return (response.json() as { data: { current: { pageviews: number } } }).data.current.pageviews
}
