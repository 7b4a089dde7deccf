/**
 * Saved segments: a named list of filters (the `filters` query parameter's JSON, `filterList`) that
 * any analytics read applies with `segment=ID`. Bounds and messages of the request bodies:
 * - `name`: 1-100 characters after trimming, no NUL.
 * - `filters`: 1 to 20 filters of the `filters` query parameter (the server checks them with that
 *   parameter's parser: the same parameters, types, values and regular expressions).
 * - `visibility`: `personal` (seen and changed by its creator only) or `site` (seen by every reader
 *   of the site, changed by its admins and owners).
 * An update (`segmentUpdate`) takes any non-empty subset. The server answers
 * `Invalid segment: <field>: <problem>`.
 */
import { z } from 'zod'
import { MAX_FILTERS } from './analytics-query.js'
import { isNulFree, nulMessage } from './nul-free.js'
import { component, doc } from './openapi-registry.js'
import { timestamp } from './schema-fields.js'

/** Longest segment name, in characters. */
export const MAX_SEGMENT_NAME = 100

/** Who sees a segment: its creator only, or every reader of the site. */
export const segmentVisibilities = ['personal', 'site'] as const
/** `personal` or `site`. */
export type SegmentVisibility = (typeof segmentVisibilities)[number]

const name = z
  .string({ error: (issue) => (issue.input === undefined ? 'name is required' : 'name must be a string') })
  .trim()
  .min(1, 'name is required')
  .max(MAX_SEGMENT_NAME, `name must be at most ${MAX_SEGMENT_NAME} characters`)
  .refine(isNulFree, nulMessage('name'))

/**
 * A filter's shape; what it may name and hold is the `filters` parameter's (`filterList`), which the
 * server checks with the very parser of the parameter, so both always accept the same filters.
 */
const filterShape = z.object({ parameter: z.string(), type: z.string(), value: z.array(z.string()) })

const filters = doc(
  z
    .array(filterShape, { error: 'filters must be an array of {parameter, type, value}' })
    .min(1, 'filters must hold at least one filter')
    .max(MAX_FILTERS, `filters holds at most ${MAX_FILTERS} filters`),
  {
    description:
      'The filters, as the `filters` query parameter holds them (a JSON array here, not text); combined with AND',
  },
)

const visibility = doc(
  z.enum(segmentVisibilities, {
    error: (issue) =>
      issue.input === undefined ? 'visibility is required' : 'visibility must be personal or site',
  }),
  '`personal`: seen and changed by its creator only; `site`: seen by every reader of the site, changed ' +
    'by its admins and owners',
)

/** The body of `POST /api/sites/{siteId}/segments`. */
export const segmentInput = z.strictObject({ name, filters, visibility })
export type SegmentInput = z.infer<typeof segmentInput>

/** The body of `PATCH /api/sites/{siteId}/segments/{segmentId}`: any non-empty subset. */
export const segmentUpdate = z
  .strictObject({ name: name.optional(), filters: filters.optional(), visibility: visibility.optional() })
  .refine((update) => Object.keys(update).length > 0, 'give at least one of name, filters, visibility')
export type SegmentUpdate = z.infer<typeof segmentUpdate>

/** A saved segment as the API answers it. */
export const segment = component(
  'Segment',
  z.object({
    segmentId: doc(z.int().min(1), 'Pass it as `segment` to any analytics read'),
    siteId: z.int().min(1),
    name: z.string(),
    filters: doc(z.array(filterShape), 'As the `filters` query parameter holds them'),
    visibility: z.enum(segmentVisibilities),
    createdBy: doc(z.string(), "The creator's user id (a personal segment is theirs)"),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
  'A saved segment: named filters of a site, personal to its creator or shared with the site.',
)
export type Segment = z.infer<typeof segment>
