/**
 * The query parameters of the analytics reads: the common ones (the protocol's `analyticsQuery`, which
 * `query/params.ts` parses with) and the report parameters several routes share, all the protocol's
 * (`contracts/reports.ts`), which parse the text and document it alike.
 */
import { doc, seriesBuckets } from '@pathlight/protocol'
import { z } from 'zod'

export { analyticsQuery, eventsQuery, sessionsQuery, statsQuery } from '@pathlight/protocol'

/** A time-series bucket size (weeks start on Monday), as the v1 revenue documents it. */
export const seriesBucket = doc(z.enum(seriesBuckets), 'Bucket size (weeks start on Monday)')
