/**
 * Annotations: a note on one calendar day of a site's chart (a launch, an outage), `{date, text}`.
 * `date` is a calendar day YYYY-MM-DD (1970..2100), as the reports' `start_date`; `text` is 1-500
 * characters after trimming, without NUL. A create takes both (`annotationInput`); a change any
 * subset (`annotationUpdate`; none changes nothing). Each problem names its field; the server answers
 * `Invalid annotation: <field>: <problem>`.
 */
import { z } from 'zod'
import { isCalendarDay } from './analytics-query.js'
import { isNulFree, nulMessage } from './nul-free.js'
import { component, doc } from './openapi-registry.js'
import { timestamp } from './schema-fields.js'

/** Longest annotation text, in characters. */
export const MAX_ANNOTATION_TEXT = 500

const date = doc(
  z
    .string({ error: (issue) => (issue.input === undefined ? 'date is required' : 'date must be a string') })
    .refine(isCalendarDay, 'date must be a calendar date YYYY-MM-DD between 1970 and 2100'),
  { format: 'date', description: 'The day the note is about (YYYY-MM-DD, a calendar day of the site)' },
)

const text = doc(
  z
    .string({ error: (issue) => (issue.input === undefined ? 'text is required' : 'text must be a string') })
    .trim()
    .min(1, 'text is required')
    .max(MAX_ANNOTATION_TEXT, `text must be at most ${MAX_ANNOTATION_TEXT} characters`)
    .refine(isNulFree, nulMessage('text')),
  `The note, 1-${MAX_ANNOTATION_TEXT} characters (trimmed)`,
)

/** The body of `POST /api/sites/{siteId}/annotations`. */
export const annotationInput = z.strictObject({ date, text })
export type AnnotationInput = z.infer<typeof annotationInput>

/** The body of `PATCH /api/sites/{siteId}/annotations/{id}`: any subset (none changes nothing). */
export const annotationUpdate = z.strictObject({ date: date.optional(), text: text.optional() })
export type AnnotationUpdate = z.infer<typeof annotationUpdate>

export const annotation = component(
  'Annotation',
  z.object({
    id: doc(z.int().min(1), 'The annotation id'),
    date: doc(z.string(), { format: 'date', description: 'The day the note is about' }),
    text: z.string(),
    createdAt: timestamp('When it was written'),
    updatedAt: timestamp('When it last changed'),
  }),
  'A note on one day of the chart (a launch, an outage).',
)
export type Annotation = z.infer<typeof annotation>

/** `GET .../annotations`: the days to list (both optional, both included; the end not before the start). */
export const annotationsQuery = z
  .object({
    start_date: doc(
      z
        .string({ error: () => 'start_date must be given once' })
        .refine(isCalendarDay, 'start_date must be a calendar date YYYY-MM-DD between 1970 and 2100'),
      { format: 'date', description: 'First day listed; default: the earliest' },
    ).optional(),
    end_date: doc(
      z
        .string({ error: () => 'end_date must be given once' })
        .refine(isCalendarDay, 'end_date must be a calendar date YYYY-MM-DD between 1970 and 2100'),
      { format: 'date', description: 'Last day listed (included); default: the latest' },
    ).optional(),
  })
  .refine((q) => q.start_date === undefined || q.end_date === undefined || q.start_date <= q.end_date, {
    path: ['end_date'],
    message: 'end_date must not be before start_date',
  })
