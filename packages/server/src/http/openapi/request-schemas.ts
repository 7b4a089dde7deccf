/**
 * Request shapes that have no exported zod schema to import: the query parameters (validated by
 * `query/params.ts` and private schemas of the routes), the goal bodies (`goals/goal-input.ts` checks
 * `config` against the goal type in code), the private link action, the admin limits and Better Auth's
 * bodies. Built from the exported constants of those modules, so bounds and enums cannot drift; the
 * bodies that do have an exported schema (sites, members, webhooks, alerts, API keys, tracking) are
 * imported by the catalogue directly.
 */
import { doc, seriesBuckets } from '@pathlight/protocol'
import { z } from 'zod'
import { experimentStatuses } from '../../experiments/experiment.js'
import {
  EXPERIMENT_KEY_PATTERN,
  MAX_EXPERIMENT_DESCRIPTION,
  MAX_EXPERIMENT_NAME,
  MAX_VARIANT_NAME,
  MAX_VARIANTS,
  MIN_VARIANTS,
} from '../../experiments/experiment-input.js'
import { MAX_EVENT_FIELD, MAX_GOAL_NAME, MAX_PATH_PATTERN } from '../../goals/goal-input.js'
import {
  filterParameters,
  filterTypes,
  MAX_FILTER_VALUES,
  MAX_FILTERS,
  MAX_VALUE_LENGTH,
} from '../../query/filters.js'
import { pageSortFields } from '../../query/page-stats.js'
import { DEFAULT_LIMIT, DEFAULT_RANGE_DAYS, MAX_LIMIT, MAX_PAGE, MAX_RANGE_DAYS } from '../../query/params.js'
import { bucketUnits } from '../../query/time-buckets.js'
import { webVitalDimensions } from '../../query/web-vitals.js'
import { privateLinkActions } from '../../sites/private-link.js'
import { eventTypes } from '../../storage/events/event-row.js'
import { toJsonSchema } from './to-json-schema.js'

const filterList = z
  .array(
    z.object({
      parameter: z.enum(filterParameters),
      type: doc(
        z.enum(filterTypes),
        'equals, not_equals, starts_with: exact; contains, not_contains: any case',
      ),
      value: doc(
        z.array(z.string().max(MAX_VALUE_LENGTH)).min(1).max(MAX_FILTER_VALUES),
        'Alternatives: `equals` any of them, `not_equals` none of them',
      ),
    }),
  )
  .max(MAX_FILTERS)

const day = (description: string) => doc(z.string(), { format: 'date', description })

/** The common parameters of every analytics read (`query/params.ts`). */
export const analyticsQuery = z.object({
  start_date: day(
    'First day (YYYY-MM-DD, calendar day in time_zone); ' +
      `default ${DEFAULT_RANGE_DAYS - 1} days before end_date`,
  ).optional(),
  end_date: day(
    `Last day, included; default today in time_zone. The range spans at most ${MAX_RANGE_DAYS} days`,
  ).optional(),
  time_zone: doc(
    z.string(),
    'IANA time zone name (case-insensitive), e.g. Europe/Berlin; default UTC',
  ).optional(),
  filters: doc(z.string(), {
    description:
      'JSON array of `{parameter, type, value:[...]}` (URL-encoded); filters combine with AND. ' +
      'Example: `[{"parameter":"country","type":"equals","value":["US","CA"]}]`',
    contentMediaType: 'application/json',
    contentSchema: toJsonSchema(filterList, 'input').schema,
  }).optional(),
  page: doc(z.int().min(1).max(MAX_PAGE), '1-based page number; default 1').optional(),
  limit: doc(z.int().min(1).max(MAX_LIMIT), `Rows per page; default ${DEFAULT_LIMIT}`).optional(),
})

const errorMessage = doc(z.string().min(1).max(2048), 'The exact error message')

/** `error-events`: the common parameters and the message. */
export const errorEventsQuery = analyticsQuery.extend({ errorMessage })

/** `error-bucketed`: the common parameters, the message and the bucket size. */
export const errorBucketsQuery = analyticsQuery.extend({
  errorMessage,
  bucket: doc(z.enum(bucketUnits), 'Bucket size (weeks start on Monday); default hour').optional(),
})

/** The delivery log's paging (`http/webhooks.ts`). */
export const deliveriesQuery = z.object({
  page: doc(z.int().min(1), '1-based page number; default 1').optional(),
  limit: doc(z.int().min(1).max(100), 'Deliveries per page; default 20').optional(),
})

/** `GET /api/admin/events-count`. */
export const eventsCountQuery = z.object({ site_id: doc(z.int().min(1), 'The numeric site id') })

/** `GET /api/script-vitals.js`. */
export const vitalsQuery = z.object({
  v: doc(
    z.string(),
    'The content hash the core script asks for: with the current one, cached a year',
  ).optional(),
})

/** `GET /api/sites/{siteId}/events`: the common parameters (no page: a cursor) and its own. */
export const eventsQuery = analyticsQuery.omit({ page: true }).extend({
  type: doc(z.string(), `Comma-separated event types: ${eventTypes.join(', ')}`).optional(),
  event_name: doc(z.string().max(256), 'Only events of this name').optional(),
  cursor: doc(z.string().max(200), 'The `meta.nextCursor` of the previous page').optional(),
})

/** `GET /api/v1/sites/{siteId}/events`: as `eventsQuery`, 100 events per page by default. */
export const v1EventsQuery = eventsQuery.extend({
  limit: doc(z.int().min(1).max(MAX_LIMIT), 'Events per page; default 100').optional(),
})

/** `GET /api/sites/{siteId}/web-vitals`. */
export const webVitalsQuery = analyticsQuery.extend({
  by: doc(
    z.enum(Object.keys(webVitalDimensions) as [keyof typeof webVitalDimensions]),
    'Group by this',
  ).optional(),
})

const goalName = z.string().min(1).max(MAX_GOAL_NAME)
const pathConfig = z.strictObject({
  pathPattern: doc(
    z.string().min(1).max(MAX_PATH_PATTERN),
    'Starts with `/`; `*` only as the last character (prefix match)',
  ),
})
const eventConfig = z.strictObject({
  eventName: z.string().min(1).max(MAX_EVENT_FIELD),
  eventPropertyKey: doc(z.string().min(1).max(MAX_EVENT_FIELD), 'Give with eventPropertyValue').optional(),
  eventPropertyValue: doc(
    z.union([z.string().max(MAX_EVENT_FIELD), z.number()]),
    'Give with eventPropertyKey',
  ).optional(),
})

/** `POST /api/sites/{siteId}/goals` (`goals/goal-input.ts`). */
export const createGoalBody = z.discriminatedUnion('goalType', [
  z.strictObject({ name: goalName, goalType: z.literal('path'), config: pathConfig }),
  z.strictObject({ name: goalName, goalType: z.literal('event'), config: eventConfig }),
])

/** `PUT /api/sites/{siteId}/goals/{goalId}`: any subset; changing goalType needs a config of the new type. */
export const updateGoalBody = z.strictObject({
  name: goalName.optional(),
  goalType: z.enum(['path', 'event']).optional(),
  config: doc(z.union([pathConfig, eventConfig]), 'Replaces the stored config whole').optional(),
})

/** `POST /api/sites/{siteId}/private-link-config`. */
export const privateLinkBody = z.object({ action: z.enum(privateLinkActions) })

/** `PUT /api/admin/sites/{siteId}/limits`. */
export const limitsBody = z.object({
  monthlyPageviewLimit: doc(
    z.int().min(1).max(2_147_483_647),
    'Pageviews per month; null for unlimited',
  ).nullable(),
})

/** Better Auth's sign-up and sign-in bodies (the main `POST /api/auth/*` calls). */
export const authBody = z.union([
  doc(
    z.object({
      name: z.string(),
      email: z.string(),
      password: doc(z.string().min(8).max(256), '8 to 256 characters'),
    }),
    { title: 'sign-up/email' },
  ),
  doc(z.object({ email: z.string(), password: z.string() }), { title: 'sign-in/email' }),
])

const seriesBucket = doc(z.enum(seriesBuckets), 'Bucket size (weeks start on Monday)')

/** `GET /api/sites/{siteId}/stats` and `GET /api/v1/sites/{siteId}/stats`. */
export const statsQuery = analyticsQuery.extend({
  bucket: doc(seriesBucket, 'With it, a time series of the range in buckets of this size').optional(),
})

/** `GET /api/v1/sites/{siteId}/pages`. */
export const v1PagesQuery = analyticsQuery.extend({
  sort: doc(z.enum(pageSortFields), 'Default pageviews').optional(),
  order: doc(z.enum(['asc', 'desc']), 'Default desc').optional(),
})

/** `GET /api/v1/sites/{siteId}/revenue`. */
export const v1RevenueQuery = analyticsQuery.extend({
  bucket: doc(seriesBucket, 'Bucket size of `series`; default day').optional(),
})

const experimentFields = {
  name: z.string().min(1).max(MAX_EXPERIMENT_NAME),
  key: doc(z.string().regex(EXPERIMENT_KEY_PATTERN), 'Unique on the site; exposure events carry it'),
  description: z.string().max(MAX_EXPERIMENT_DESCRIPTION).nullable(),
  variants: doc(
    z
      .array(
        z.strictObject({ name: z.string().min(1).max(MAX_VARIANT_NAME), control: z.boolean().optional() }),
      )
      .min(MIN_VARIANTS)
      .max(MAX_VARIANTS),
    'Names unique; exactly one with `control: true`',
  ),
  goalId: doc(z.int().min(1).max(0x7fffffff), 'A goal of the same site: it measures success'),
  status: doc(z.enum(experimentStatuses), 'Informative; results are computed in every state'),
}

/** `POST /api/sites/{siteId}/experiments` (`experiments/experiment-input.ts`). */
export const createExperimentBody = z.strictObject({
  ...experimentFields,
  description: experimentFields.description.optional(),
  status: doc(experimentFields.status, 'Default draft').optional(),
})

/** `PATCH /api/sites/{siteId}/experiments/{experimentId}`: any subset; `variants` replaced whole. */
export const updateExperimentBody = z.strictObject(experimentFields).partial()
