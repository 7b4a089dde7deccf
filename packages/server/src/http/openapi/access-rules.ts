/**
 * Who may call a route, as the document states it: a label for readers, the security requirements
 * (alternatives; `{}` is "no credentials"), and the error answers every route of that level can give.
 * Mirrors `http/caller.ts`, `http/reader.ts`, `auth/site-access.ts` and `http/v1/v1-scope.ts`, and the
 * authorization matrix test (`http/authorization-matrix.test.ts`) that checks them. The levels are the
 * protocol's `accessLevels`, which endpoint contracts name.
 */
import type { Access as ContractAccess } from '@pathlight/protocol'

/** Security scheme names (`components.securitySchemes` of the document). */
export const securitySchemes = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key (`pl_...`, created at `POST /api/user/api-keys`): `Authorization: Bearer <key>`. ' +
      "It acts with its user's role in each organization.",
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'better-auth.session_token',
    description:
      'The session cookie set by `POST /api/auth/sign-in/email` or `sign-up/email` (named with a ' +
      '`__Secure-` prefix when BASE_URL is https).',
  },
  privateLink: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Private-Key',
    description: "A site's private link key: reads that site's analytics, and nothing else.",
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator token METRICS_TOKEN (`Authorization: Bearer <token>`): reads `GET /metrics`, which ' +
      'exists only when it is set.',
  },
} as const

type Requirement = Partial<Record<keyof typeof securitySchemes, string[]>>

/** What an access level means in the document. */
export interface AccessRule {
  label: string
  security: Requirement[]
  /** Error answers of every route of this level, by status. */
  errors: Record<number, string>
}

const caller: Requirement[] = [{ apiKey: [] }, { session: [] }]
const noCaller = 'No credentials, or an invalid API key'
const notFound = 'Not found, or not in one of your organizations (never revealed)'
const notAdmin = 'Your role is member: this needs admin or owner'
/** Any route with a caller may refuse a key beyond its scope or a cross-site cookie request. */
const refused =
  'An API key whose scope does not allow this (`track` keys only send events; `read` keys only read), or a state-changing cookie request whose Origin/Referer is not BASE_URL or a trusted origin'
const alsoRefused = (first: string) => `${first}; or: ${refused}`
/**
 * Any route with a caller draws an API key's requests from the key's one budget (`http/key-budget.ts`),
 * and the session cookie's reads from the user's and the organization's (`http/read-budget.ts`); a
 * site's report queries queue per organization (`query/tenant-read-queue.ts`).
 */
const overBudget =
  'An API key over its request budget (50 per minute by default, shared by the v1 and dashboard routes), a user or organization over its budget of cookie reads, or too many report queries of the organization waiting; see `Retry-After` (and `X-RateLimit-*` for the budgets)'

/** Every access level. */
export const accessRules = {
  public: { label: 'Anyone', security: [], errors: {} },
  signedIn: {
    label: 'Signed in (session cookie or API key)',
    security: caller,
    errors: { 401: noCaller, 403: refused, 429: overBudget },
  },
  session: {
    label: 'Signed in with the session cookie (an API key is refused)',
    security: [{ session: [] }],
    errors: {
      401: 'No session cookie',
      403: 'An API key, or a cross-site request (Origin/Referer not BASE_URL or a trusted origin)',
      429: overBudget,
    },
  },
  member: {
    label: 'A member of the organization (any role)',
    security: caller,
    errors: { 401: noCaller, 403: refused, 404: notFound, 429: overBudget },
  },
  admin: {
    label: 'An admin or owner of the organization',
    security: caller,
    errors: { 401: noCaller, 403: alsoRefused(notAdmin), 404: notFound, 429: overBudget },
  },
  owner: {
    label: 'An owner of the organization',
    security: caller,
    errors: { 401: noCaller, 403: alsoRefused('This needs the owner role'), 404: notFound, 429: overBudget },
  },
  instanceOwner: {
    label: 'The instance owner (the first account of the instance)',
    security: caller,
    errors: { 401: noCaller, 403: alsoRefused('Not the instance owner'), 429: overBudget },
  },
  reader: {
    label:
      "A reader: a member of the site's organization, the holder of its private link key " +
      '(`X-Private-Key`), or anyone when the site is public',
    security: [...caller, { privateLink: [] }, {}],
    errors: {
      401: 'No credentials and the site is not public (also for unknown sites), or an invalid API key',
      403: refused,
      404: 'The credentials do not reach this site (never revealed)',
      429: overBudget,
    },
  },
  apiKey: {
    label: 'An API key only (`Authorization: Bearer`), rate limited per key',
    security: [{ apiKey: [] }],
    errors: {
      401: 'No API key, or an invalid or expired one (session cookies are not accepted)',
      403: 'A `track` key: it may only send events',
      429: overBudget,
    },
  },
  metricsToken: {
    label: 'A scraper with the metrics token (`Authorization: Bearer <METRICS_TOKEN>`)',
    security: [{ metricsToken: [] }],
    errors: { 401: 'No token, or not the METRICS_TOKEN of this instance' },
  },
} as const satisfies Record<ContractAccess, AccessRule>

export type Access = keyof typeof accessRules
