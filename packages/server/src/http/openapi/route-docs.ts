/**
 * The route catalogue: one entry per route of the service, keyed exactly as `app.routeList` names it
 * (`'<METHOD> <Fastify url>'`, e.g. `'GET /api/sites/:siteId'`). `build-document.ts` turns it into the
 * OpenAPI document; `openapi.test.ts` fails when a registered route has no entry here.
 *
 * Adding a route: add one entry with its summary, tag, access level (who may call it), the query and
 * body schemas the route validates with (import the route's own zod schema when it is exported), and
 * its answers per status (`json(description, schema)` with a schema of `@pathlight/protocol`, or a
 * string for an error answer). The access level adds its usual errors (401, 403, 404, 429), a query or
 * body adds 400, and every route gets a `default` error answer; list other statuses here.
 */
import {
  alertRule,
  apiKey,
  auditEntry,
  breakdownRow,
  createdApiKey,
  createdWebhook,
  dataList,
  delivery,
  doc,
  errorBucket,
  errorEvent,
  errorName,
  event,
  eventName,
  experiment,
  experimentWithResults,
  goal,
  goalId,
  healthResponse,
  ingestStats,
  liveVisitors,
  member,
  organization,
  ownSession,
  pagedList,
  pageStats,
  privateLink,
  redelivery,
  reportSummary,
  revenueReport,
  seriesBuckets,
  session,
  sessionEvent,
  site,
  siteConfig,
  siteEventStatus,
  siteLimits,
  stats,
  statsMeta,
  successData,
  successResponse,
  trackerConfig,
  trackResponse,
  webhook,
  webhookSecret,
  webVitals,
  webVitalsRow,
  webVitalsThresholds,
} from '@pathlight/protocol'
import { z } from 'zod'
import { createAlertBody, updateAlertBody } from '../../alerts/alert-rules.js'
import { createApiKeyBody } from '../../auth/api-keys.js'
import { trackPayloadSchema } from '../../ingest/payload.js'
import { addMemberBody, changeRoleBody } from '../../organizations/members.js'
import { createOrganizationBody } from '../../organizations/organizations.js'
import { breakdowns } from '../../query/breakdown.js'
import { siteConfigUpdate } from '../../sites/site-config.js'
import { createSiteBody } from '../../sites/sites.js'
import { createWebhookBody, updateWebhookBody } from '../../webhooks/webhooks.js'
import { changePasswordBody } from '../account.js'
import {
  analyticsQuery,
  authBody,
  createExperimentBody,
  createGoalBody,
  deliveriesQuery,
  errorBucketsQuery,
  errorEventsQuery,
  eventsCountQuery,
  eventsQuery,
  limitsBody,
  privateLinkBody,
  statsQuery,
  updateExperimentBody,
  updateGoalBody,
  v1EventsQuery,
  v1PagesQuery,
  v1RevenueQuery,
  vitalsQuery,
  webVitalsQuery,
} from './request-schemas.js'
import { empty, json, media, type RouteDoc } from './route-doc.js'

const notModified = empty('Not modified (the `If-None-Match` ETag matches)')
const deleted = json('Deleted', successResponse)
const anyJson = z.unknown()
const notMine = 'Not found, or not in one of your organizations'
const day = doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' })
const seriesBucket = z.enum(seriesBuckets)
const statsAnswer = json('The figures', z.object({ data: stats, meta: statsMeta }))
const eventPage = json(
  'A page of events, newest first',
  z.object({
    data: z.array(event),
    meta: z.object({
      nextCursor: doc(z.string(), 'Pass it as `cursor` for the next page; null at the end').nullable(),
      limit: z.int().min(1),
    }),
  }),
)
const emptyMeta = z.object({})

/** Every route, by `'<METHOD> <url>'`. */
export const routeDocs: Record<string, RouteDoc> = {
  // Health, auth, reference, dashboard
  'GET /api/health': {
    summary: 'Health of the service and its stores',
    tag: 'Health',
    access: 'public',
    responses: {
      200: json('Both stores answer', healthResponse),
      503: json('A store does not answer within 2 s, or the process is shutting down', healthResponse),
    },
  },
  'GET /api/auth/*': {
    summary: 'Better Auth (reads), e.g. `get-session`',
    description:
      'Better Auth serves everything under `/api/auth/`; its answers are its own (not `ErrorResponse`). ' +
      '`GET /api/auth/get-session` answers the session and user of the cookie, or null.',
    tag: 'Auth',
    access: 'public',
    params: { path: 'The Better Auth endpoint, e.g. `get-session`' },
    responses: { 200: json("Better Auth's answer", anyJson), default: json("Better Auth's error", anyJson) },
  },
  'POST /api/auth/*': {
    summary: 'Better Auth: sign up, sign in, sign out',
    description:
      '`POST /api/auth/sign-up/email` `{name, email, password}` creates an account (the first one owns ' +
      'the instance; closed when `DISABLE_SIGNUP` is set and the owner exists) and signs it in; ' +
      '`POST /api/auth/sign-in/email` `{email, password}` sets the session cookie; ' +
      "`POST /api/auth/sign-out` ends the session. Answers are Better Auth's own, but for 429: " +
      'failed sign-ins, sign-ups and password checks are throttled per account and client address ' +
      '(`AUTH_THROTTLE_*`), and beyond the limit even the right password is refused until `Retry-After`. ' +
      'Requests with the session cookie must come from BASE_URL or a trusted origin (`TRUSTED_ORIGINS`).',
    tag: 'Auth',
    access: 'public',
    params: { path: 'The Better Auth endpoint: `sign-up/email`, `sign-in/email`, `sign-out`, ...' },
    body: authBody,
    responses: {
      200: json('Done; sign-up and sign-in set the session cookie', anyJson),
      403: json(
        "Better Auth's refusal, e.g. an Origin that is not BASE_URL or a trusted origin (`{message, code}`)",
        anyJson,
      ),
      429:
        'Too many failed attempts for this account from this address (5 per 15 minutes by default) or ' +
        'from this address (50): sign-in, sign-up and password endpoints; see `Retry-After`',
      400: json("Better Auth's validation error (`{message, code}`)", anyJson),
      default: json("Better Auth's error (e.g. 400, 401 wrong password, 403, 422 email taken)", anyJson),
    },
  },
  'GET /api/openapi.json': {
    summary: 'This OpenAPI 3.1 document',
    tag: 'Reference',
    access: 'public',
    responses: {
      200: json(
        'The document (cached 5 minutes)',
        z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), anyJson) }),
      ),
    },
  },
  'GET /api/docs': {
    summary: 'The API reference page (HTML, rendered from this document)',
    tag: 'Reference',
    access: 'public',
    responses: { 200: media('The reference page (cached 5 minutes)', 'text/html') },
  },
  'GET /*': {
    summary: 'The dashboard web app',
    description:
      'Files of the built app (`/assets/*` cached a year), and `index.html` for any other path outside ' +
      '`/api/` (client-side routes). Missing files and unknown `/api/` paths answer 404.',
    tag: 'Dashboard',
    access: 'public',
    params: { path: 'Any path outside `/api/`' },
    responses: {
      200: media('A page or a file of the app', 'text/html', '*/*'),
      304: notModified,
      404: 'No such file or route',
      503: media('The dashboard has not been built (a page saying how to build it)', 'text/html'),
    },
  },

  // Tracking
  'POST /api/track': {
    summary: 'Track an event',
    description:
      'The body may be JSON or the same JSON as `text/plain` (beacons), at most 64 KB. Without an API ' +
      "key the request's Origin, Referer or `hostname` must be the site's domain (or a subdomain) and bots " +
      'are dropped when the site blocks them. Answers 200 only once the event is committed.',
    tag: 'Tracking',
    access: 'public',
    who: "an API key is optional (server-side tracking); its user must be in the site's organization",
    security: [{}, { apiKey: [] }],
    body: trackPayloadSchema,
    bodyMediaTypes: ['application/json', 'text/plain'],
    responses: {
      200: json('Recorded, or excluded (`tracked:false`, nothing stored)', trackResponse),
      400: 'Invalid payload (`details.fieldErrors` names the fields)',
      401: 'Invalid API key',
      403: 'Access denied (key user not a member), domain not allowed, bot detected, or over the limit',
      404: 'Site not found',
      413: 'Body over 64 KB',
      429: 'More than the per-key limit (500 per 10 minutes by default); see `Retry-After`',
      503: 'Events store unavailable; nothing acknowledged',
    },
  },
  'OPTIONS /api/track': {
    summary: 'CORS preflight of the tracking endpoint',
    tag: 'Tracking',
    access: 'public',
    responses: { 204: empty('Allowed: POST with Content-Type from any origin (no Authorization)') },
  },
  'GET /api/script.js': {
    summary: 'The browser tracking script',
    description: 'Generic for every site; cached a day, revalidated by ETag; brotli or gzip when accepted.',
    tag: 'Tracking',
    access: 'public',
    responses: { 200: media('The script', 'text/javascript'), 304: notModified },
  },
  'GET /api/script-vitals.js': {
    summary: 'The web-vitals chunk of the tracking script',
    tag: 'Tracking',
    access: 'public',
    query: vitalsQuery,
    responses: { 200: media('The chunk', 'text/javascript'), 304: notModified },
  },
  'GET /api/sites/:siteId/tracker-config': {
    summary: "A site's tracking switches, for the script",
    description: 'Cached 60 s by browsers; revalidated by ETag.',
    tag: 'Tracking',
    access: 'public',
    responses: { 200: json('The switches', trackerConfig), 304: notModified, 404: 'Site not found' },
  },

  // Organizations
  'GET /api/organizations': {
    summary: 'My organizations, with my role in each',
    tag: 'Organizations',
    access: 'signedIn',
    responses: { 200: json('Oldest first', successData(z.array(organization))) },
  },
  'POST /api/organizations': {
    summary: 'Create an organization (I become its owner)',
    tag: 'Organizations',
    access: 'signedIn',
    body: createOrganizationBody,
    responses: { 201: json('Created', organization) },
  },
  'POST /api/organizations/:organizationId/sites': {
    summary: 'Create a site',
    description: 'The domain is normalised (`https://WWW.Example.com/blog` becomes `www.example.com`).',
    tag: 'Organizations',
    access: 'admin',
    body: createSiteBody,
    responses: { 201: json('Created', site) },
  },
  'GET /api/organizations/:organizationId/sites': {
    summary: "The organization's sites",
    tag: 'Organizations',
    access: 'member',
    responses: { 200: json('By site id', successData(z.array(site))) },
  },

  // Members
  'GET /api/organizations/:organizationId/members': {
    summary: 'Members and their roles',
    tag: 'Members',
    access: 'member',
    responses: { 200: json('Oldest first', successData(z.array(member))) },
  },
  'POST /api/organizations/:organizationId/members': {
    summary: 'Add an existing account as a member',
    tag: 'Members',
    access: 'admin',
    who: 'only an owner adds owners',
    body: addMemberBody,
    responses: {
      201: json('Added', successData(member)),
      403: 'Not admin or owner, or an admin adding an owner',
      404: 'Not found, or no account with that email',
      409: 'Already a member',
    },
  },
  'PATCH /api/organizations/:organizationId/members/:userId': {
    summary: "Change a member's role",
    tag: 'Members',
    access: 'admin',
    who: 'only an owner grants, changes or removes the owner role',
    body: changeRoleBody,
    responses: {
      200: json('The member after the change', successData(member)),
      409: 'The last owner cannot be demoted',
    },
  },
  'DELETE /api/organizations/:organizationId/members/:userId': {
    summary: 'Remove a member (or leave)',
    tag: 'Members',
    access: 'admin',
    who: 'any member may remove themselves; only an owner removes an owner',
    responses: { 200: json('Removed', successResponse), 409: 'The last owner cannot be removed' },
  },
  'GET /api/organizations/:organizationId/audit-log': {
    summary: "The organization's audit trail",
    tag: 'Members',
    access: 'admin',
    responses: { 200: json('Newest first (at most 100)', successData(z.array(auditEntry))) },
  },

  // Sites
  'GET /api/sites/:siteId': {
    summary: 'A site',
    tag: 'Sites',
    access: 'member',
    responses: { 200: json('The site', site) },
  },
  'DELETE /api/sites/:siteId': {
    summary: 'Delete a site and all its data',
    description: 'Events, goals, webhooks, alert rules and the private link go with it; irreversible.',
    tag: 'Sites',
    access: 'admin',
    responses: { 200: deleted },
  },
  'PUT /api/sites/:siteId/config': {
    summary: "Change a site's configuration",
    description: 'Any subset of the fields; takes effect on the next tracking request.',
    tag: 'Sites',
    access: 'admin',
    body: siteConfigUpdate,
    responses: {
      200: json(
        'The configuration after the change',
        z.object({
          success: z.literal(true),
          message: doc(z.string(), '`Updated <fields>` or `No changes`'),
          config: siteConfig,
        }),
      ),
    },
  },
  'GET /api/sites/:siteId/excluded-ips': {
    summary: 'Excluded IP addresses and ranges',
    tag: 'Sites',
    access: 'member',
    responses: {
      200: json('The list', z.object({ success: z.literal(true), excludedIPs: z.array(z.string()) })),
    },
  },
  'GET /api/sites/:siteId/excluded-countries': {
    summary: 'Excluded countries',
    tag: 'Sites',
    access: 'member',
    responses: {
      200: json('The list', z.object({ success: z.literal(true), excludedCountries: z.array(z.string()) })),
    },
  },
  'GET /api/sites/:siteId/private-link-config': {
    summary: "The site's private link key",
    tag: 'Sites',
    access: 'member',
    responses: { 200: json('The key (null when none)', successData(privateLink)) },
  },
  'POST /api/sites/:siteId/private-link-config': {
    summary: 'Generate or revoke the private link key',
    description:
      '`generate_private_link_key`: a new key (256 random bits) replacing any previous one; ' +
      '`revoke_private_link_key`: no key.',
    tag: 'Sites',
    access: 'admin',
    body: privateLinkBody,
    responses: { 200: json('The key after the action (null when revoked)', successData(privateLink)) },
  },
  'GET /api/sites/:siteId/has-events': {
    summary: 'Whether the site has received an event yet',
    tag: 'Sites',
    access: 'member',
    responses: { 200: json('The status', successData(siteEventStatus)) },
  },
  'GET /api/sites/:siteId/audit-log': {
    summary: "The site's audit trail",
    tag: 'Sites',
    access: 'admin',
    responses: { 200: json('Newest first (at most 100)', successData(z.array(auditEntry))) },
  },

  // Goals
  'GET /api/sites/:siteId/goals': {
    summary: 'Goals with their conversions over the range',
    tag: 'Goals',
    access: 'reader',
    query: analyticsQuery,
    responses: { 200: json('Oldest goal first', pagedList(goal)) },
  },
  'POST /api/sites/:siteId/goals': {
    summary: 'Create a goal',
    tag: 'Goals',
    access: 'admin',
    body: createGoalBody,
    responses: {
      201: json('Created', goalId),
      401: 'No credentials (a private link key does not write), or an invalid API key',
    },
  },
  'PUT /api/sites/:siteId/goals/:goalId': {
    summary: 'Change a goal',
    description:
      'Any subset; `config` is replaced whole, and changing `goalType` needs a `config` of the new type.',
    tag: 'Goals',
    access: 'admin',
    body: updateGoalBody,
    responses: {
      200: json('Changed', goalId),
      401: 'No credentials (a private link key does not write), or an invalid API key',
    },
  },
  'DELETE /api/sites/:siteId/goals/:goalId': {
    summary: 'Delete a goal',
    tag: 'Goals',
    access: 'admin',
    responses: {
      200: deleted,
      401: 'No credentials (a private link key does not write), or an invalid API key',
    },
  },
  'GET /api/sites/:siteId/goals/:goalId/sessions': {
    summary: 'Sessions that completed a goal',
    tag: 'Goals',
    access: 'reader',
    query: analyticsQuery,
    responses: { 200: json('Newest first', dataList(session)) },
  },

  // Reports (dashboard)
  'GET /api/sites/:siteId/summary': {
    summary: 'The site as the caller may read it',
    tag: 'Reports',
    access: 'reader',
    responses: { 200: json('The site', z.object({ data: reportSummary, meta: emptyMeta })) },
  },
  'GET /api/sites/:siteId/stats': {
    summary: 'Headline figures, against the previous period, optionally as a time series',
    tag: 'Reports',
    access: 'reader',
    query: statsQuery,
    responses: { 200: statsAnswer },
  },
  'GET /api/sites/:siteId/breakdown/:name': {
    summary: 'Visitors, sessions and pageviews per value of a dimension',
    tag: 'Reports',
    access: 'reader',
    params: { name: `The dimension: ${Object.keys(breakdowns).join(', ')}` },
    query: analyticsQuery,
    responses: {
      200: json('A page of values, most first', pagedList(breakdownRow)),
      404: 'Unknown dimension, or the credentials do not reach this site',
    },
  },
  'GET /api/sites/:siteId/sessions': {
    summary: 'Sessions, newest first',
    tag: 'Reports',
    access: 'reader',
    query: analyticsQuery,
    responses: { 200: json('A page of sessions', pagedList(session)) },
  },
  'GET /api/sites/:siteId/sessions/:sessionId/events': {
    summary: "A session's events, oldest first",
    description: 'Filters are ignored: every event of the session in the range.',
    tag: 'Reports',
    access: 'reader',
    params: { sessionId: 'The session id (`session_id` of a Session)' },
    query: analyticsQuery,
    responses: { 200: json('A page of events', pagedList(sessionEvent)) },
  },
  'GET /api/sites/:siteId/events': {
    summary: 'Events, newest first, paged with a cursor',
    tag: 'Reports',
    access: 'reader',
    query: eventsQuery,
    responses: { 200: eventPage },
  },
  'GET /api/sites/:siteId/event-names': {
    summary: 'Custom event names with their counts',
    tag: 'Reports',
    access: 'reader',
    query: analyticsQuery,
    responses: { 200: json('A page of names, most events first', pagedList(eventName)) },
  },
  'GET /api/sites/:siteId/web-vitals': {
    summary: 'Web vitals: percentiles and bands, overall or per pathname or device type',
    tag: 'Reports',
    access: 'reader',
    query: webVitalsQuery,
    responses: {
      200: json(
        'Without `by` the metrics over the range; with `by` a page of values',
        z.union([
          z.object({ data: webVitals, meta: z.object({ thresholds: webVitalsThresholds }) }),
          z.object({
            data: z.array(webVitalsRow),
            meta: z.object({
              total: z.int().min(0),
              page: z.int().min(1),
              pageSize: z.int().min(1),
              totalPages: z.int().min(0),
              by: z.string(),
              thresholds: webVitalsThresholds,
            }),
          }),
        ]),
      ),
    },
  },
  'GET /api/sites/:siteId/live': {
    summary: 'Visitors of the last 5 minutes',
    tag: 'Reports',
    access: 'reader',
    responses: { 200: json('The count', z.object({ data: liveVisitors, meta: emptyMeta })) },
  },

  // Experiments
  'POST /api/sites/:siteId/experiments': {
    summary: 'Create an experiment',
    tag: 'Experiments',
    access: 'admin',
    body: createExperimentBody,
    responses: {
      201: json('Created', successData(experiment)),
      404: 'Not found, not in one of your organizations, or the goal is not of this site',
      409: 'The site already has an experiment with this key',
    },
  },
  'GET /api/sites/:siteId/experiments': {
    summary: "The site's experiments",
    tag: 'Experiments',
    access: 'member',
    responses: { 200: json('Oldest first', successData(z.array(experiment))) },
  },
  'GET /api/sites/:siteId/experiments/:experimentId': {
    summary: 'An experiment',
    tag: 'Experiments',
    access: 'member',
    responses: { 200: json('The experiment', successData(experiment)) },
  },
  'PATCH /api/sites/:siteId/experiments/:experimentId': {
    summary: 'Change an experiment',
    description: 'Any subset of the fields (`variants` replaced whole); the result is validated again.',
    tag: 'Experiments',
    access: 'admin',
    body: updateExperimentBody,
    responses: {
      200: json('The experiment after the change', successData(experiment)),
      409: 'The site already has an experiment with this key',
    },
  },
  'DELETE /api/sites/:siteId/experiments/:experimentId': {
    summary: 'Delete an experiment',
    tag: 'Experiments',
    access: 'admin',
    responses: { 200: deleted },
  },

  // Errors
  'GET /api/sites/:siteId/error-names': {
    summary: 'JavaScript errors by message',
    tag: 'Errors',
    access: 'reader',
    query: analyticsQuery,
    responses: { 200: json('Most frequent first', dataList(errorName)) },
  },
  'GET /api/sites/:siteId/error-events': {
    summary: 'Occurrences of one error message',
    tag: 'Errors',
    access: 'reader',
    query: errorEventsQuery,
    responses: { 200: json('Newest first', dataList(errorEvent)) },
  },
  'GET /api/sites/:siteId/error-bucketed': {
    summary: 'One error message over time',
    description: 'Every bucket of the range (empty ones 0), aligned to `time_zone`; at most 10,000 buckets.',
    tag: 'Errors',
    access: 'reader',
    query: errorBucketsQuery,
    responses: { 200: json('Oldest bucket first', successData(z.array(errorBucket))) },
  },

  // Webhooks
  'POST /api/sites/:siteId/webhooks': {
    summary: 'Subscribe a URL to events',
    description: 'The URL must be http(s) and resolve to public addresses (unless WEBHOOKS_ALLOW_PRIVATE).',
    tag: 'Webhooks',
    access: 'admin',
    body: createWebhookBody,
    responses: { 201: json('Created; the signing secret is shown only now', successData(createdWebhook)) },
  },
  'GET /api/sites/:siteId/webhooks': {
    summary: "The site's webhooks",
    tag: 'Webhooks',
    access: 'admin',
    responses: { 200: json('Oldest first', successData(z.array(webhook))) },
  },
  'GET /api/sites/:siteId/webhooks/:id': {
    summary: 'A webhook',
    tag: 'Webhooks',
    access: 'admin',
    params: { id: 'The webhook id' },
    responses: { 200: json('The webhook', successData(webhook)) },
  },
  'PATCH /api/sites/:siteId/webhooks/:id': {
    summary: 'Change a webhook',
    description: 'Re-enabling (`enabled: true`) clears an automatic disable.',
    tag: 'Webhooks',
    access: 'admin',
    params: { id: 'The webhook id' },
    body: updateWebhookBody,
    responses: { 200: json('The webhook after the change', successData(webhook)) },
  },
  'POST /api/sites/:siteId/webhooks/:id/rotate-secret': {
    summary: "Replace a webhook's signing secret",
    tag: 'Webhooks',
    access: 'admin',
    params: { id: 'The webhook id' },
    responses: { 200: json('The new secret, shown only now', successData(webhookSecret)) },
  },
  'DELETE /api/sites/:siteId/webhooks/:id': {
    summary: 'Delete a webhook and its delivery log',
    tag: 'Webhooks',
    access: 'admin',
    params: { id: 'The webhook id' },
    responses: { 200: deleted },
  },
  'GET /api/sites/:siteId/webhooks/:id/deliveries': {
    summary: "A webhook's delivery log",
    tag: 'Webhooks',
    access: 'admin',
    params: { id: 'The webhook id' },
    query: deliveriesQuery,
    responses: { 200: json('Newest first', pagedList(delivery)) },
  },
  'POST /api/sites/:siteId/webhooks/:id/deliveries/:deliveryId/redeliver': {
    summary: "Send a delivery's payload again, as a new delivery",
    tag: 'Webhooks',
    access: 'admin',
    params: { id: 'The webhook id' },
    responses: { 202: json('Queued', successData(redelivery)) },
  },

  // Alerts
  'POST /api/sites/:siteId/alerts': {
    summary: 'Create an alert rule',
    tag: 'Alerts',
    access: 'admin',
    body: createAlertBody,
    responses: { 201: json('Created', successData(alertRule)) },
  },
  'GET /api/sites/:siteId/alerts': {
    summary: "The site's alert rules",
    tag: 'Alerts',
    access: 'admin',
    responses: { 200: json('Oldest first', successData(z.array(alertRule))) },
  },
  'GET /api/sites/:siteId/alerts/:id': {
    summary: 'An alert rule',
    tag: 'Alerts',
    access: 'admin',
    params: { id: 'The alert rule id' },
    responses: { 200: json('The rule', successData(alertRule)) },
  },
  'PATCH /api/sites/:siteId/alerts/:id': {
    summary: 'Change an alert rule',
    description: 'Any subset of the fields; the rule starts over from state `ok`.',
    tag: 'Alerts',
    access: 'admin',
    params: { id: 'The alert rule id' },
    body: updateAlertBody,
    responses: { 200: json('The rule after the change', successData(alertRule)) },
  },
  'DELETE /api/sites/:siteId/alerts/:id': {
    summary: 'Delete an alert rule',
    tag: 'Alerts',
    access: 'admin',
    params: { id: 'The alert rule id' },
    responses: { 200: deleted },
  },

  // API keys
  'POST /api/user/api-keys': {
    summary: 'Create an API key',
    description:
      'The value is shown once; Pathlight stores its SHA-256. `scope` (default `full`) limits what the ' +
      'key may do: `track` only sends events (what a server-side client needs), `read` reads reports and ' +
      'the v1 API, `full` does everything its user may. `expiresAt` (optional, in the future) ends it.',
    tag: 'API keys',
    access: 'signedIn',
    body: createApiKeyBody,
    responses: { 201: json('Created', successData(createdApiKey)) },
  },
  'GET /api/user/api-keys': {
    summary: 'My API keys',
    tag: 'API keys',
    access: 'signedIn',
    responses: { 200: json('Oldest first (never the values)', successData(z.array(apiKey))) },
  },
  'DELETE /api/user/api-keys/:id': {
    summary: 'Delete one of my API keys',
    tag: 'API keys',
    access: 'signedIn',
    params: { id: 'The API key id' },
    responses: { 200: deleted, 404: 'No key of mine with that id' },
  },

  // Own account
  'GET /api/user/sessions': {
    summary: 'My active sessions',
    description: 'Newest first; the one making the request is `current`. Tokens are never shown.',
    tag: 'API keys',
    access: 'session',
    responses: { 200: json('My sessions', successData(z.array(ownSession))) },
  },
  'DELETE /api/user/sessions/:id': {
    summary: 'Revoke one of my sessions',
    description: 'Signs that browser out at once; revoking the current session signs this one out.',
    tag: 'API keys',
    access: 'session',
    params: { id: 'The session id (from `GET /api/user/sessions`)' },
    responses: { 200: deleted, 404: 'No active session of mine with that id' },
  },
  'PUT /api/user/password': {
    summary: 'Change my password',
    description:
      'Needs the current password; signs out every other session of mine and answers a new session ' +
      'cookie for this one. Wrong current passwords count in the authentication throttle.',
    tag: 'API keys',
    access: 'session',
    body: changePasswordBody,
    responses: {
      200: json('Changed', successResponse),
      429: 'Too many wrong current passwords; see `Retry-After`',
    },
  },

  // Admin
  'GET /api/admin/ingest-stats': {
    summary: 'Ingest counters since this process started',
    tag: 'Admin',
    access: 'instanceOwner',
    responses: { 200: json('The counters', ingestStats) },
  },
  'PUT /api/admin/sites/:siteId/limits': {
    summary: "Set a site's monthly pageview limit",
    description: 'Effective on the next tracking request; over the limit, tracking answers 403.',
    tag: 'Admin',
    access: 'instanceOwner',
    body: limitsBody,
    responses: { 200: json('The limit', successData(siteLimits)), 404: 'Site not found' },
  },
  'GET /api/admin/events-count': {
    summary: 'Rows the events store holds for a site',
    tag: 'Admin',
    access: 'instanceOwner',
    query: eventsCountQuery,
    responses: {
      200: json('The count', z.object({ siteId: z.int().min(1), count: z.int().min(0) })),
    },
  },

  // v1
  'GET /api/v1/sites': {
    summary: 'My sites across all my organizations',
    tag: 'v1',
    access: 'apiKey',
    responses: {
      200: json('By site id', z.object({ data: z.array(site), meta: z.object({ total: z.int().min(0) }) })),
    },
  },
  'GET /api/v1/sites/:siteId/events': {
    summary: "A site's events, newest first",
    description:
      'Paged with `cursor`: pass `meta.nextCursor` to get the next page (null at the end); every event ' +
      'of the range comes exactly once, even while new ones arrive.',
    tag: 'v1',
    access: 'apiKey',
    query: v1EventsQuery,
    responses: {
      200: eventPage,
      404: notMine,
    },
  },
  'GET /api/v1/sites/:siteId/stats': {
    summary: 'Headline figures, against the previous period, optionally as a time series',
    tag: 'v1',
    access: 'apiKey',
    query: statsQuery,
    responses: {
      200: statsAnswer,
      404: notMine,
    },
  },
  'GET /api/v1/sites/:siteId/pages': {
    summary: 'Traffic per pathname',
    tag: 'v1',
    access: 'apiKey',
    query: v1PagesQuery,
    responses: { 200: json('A page of pathnames', pagedList(pageStats)), 404: notMine },
  },
  'GET /api/v1/sites/:siteId/sessions': {
    summary: 'Sessions, newest first',
    tag: 'v1',
    access: 'apiKey',
    query: analyticsQuery,
    responses: { 200: json('A page of sessions', pagedList(session)), 404: notMine },
  },
  'GET /api/v1/sites/:siteId/events/names': {
    summary: 'Custom event names with their counts',
    tag: 'v1',
    access: 'apiKey',
    query: analyticsQuery,
    responses: { 200: json('A page of names, most events first', pagedList(eventName)), 404: notMine },
  },
  'GET /api/v1/sites/:siteId/revenue': {
    summary: 'Revenue per currency',
    description:
      'From custom events whose properties carry `revenue` (a number or decimal string) and `currency` ' +
      '(ISO 4217); amounts are never converted between currencies.',
    tag: 'v1',
    access: 'apiKey',
    query: v1RevenueQuery,
    responses: {
      200: json(
        'The report',
        z.object({
          data: revenueReport,
          meta: z.object({ startDate: day, endDate: day, bucket: seriesBucket }),
        }),
      ),
      404: notMine,
    },
  },
  'GET /api/v1/sites/:siteId/experiments': {
    summary: 'Experiments with their results over the range',
    description:
      'Per variant: exposed sessions, conversions, conversion rate, uplift against the control, z-score, ' +
      'two-sided p-value and the 95 % interval of the difference.',
    tag: 'v1',
    access: 'apiKey',
    query: analyticsQuery,
    responses: { 200: json('Oldest first', pagedList(experimentWithResults)), 404: notMine },
  },
}
