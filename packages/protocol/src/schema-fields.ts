/**
 * Field helpers the response schemas share: timestamps and counts with their documentation.
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
