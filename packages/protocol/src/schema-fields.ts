/**
 * Field helpers the response schemas share: timestamps, counts, days and web vital values with their
 * documentation.
 */
import { z } from 'zod'
import { doc } from './openapi-registry.js'

/** An ISO 8601 UTC timestamp with milliseconds, e.g. `2026-11-22T10:00:00.123Z`. */
export const timestamp = (description = 'ISO 8601 UTC with milliseconds') =>
  doc(z.string(), { format: 'date-time', description })

/** A whole number from 0, with what it counts. */
export const count = (description: string) => doc(z.int().min(0), description)

/** A calendar day, `YYYY-MM-DD`, in the query's time zone. */
export const day = doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' })

/** A web vital's value from 0 in its unit (described), null when there is none. */
export const vital = (description: string) => doc(z.number().min(0), description).nullable()
