/**
 * The query parameters of the analytics reads: the common ones (the protocol's `analyticsQuery`, which
 * `query/params.ts` parses with) and the events list's, both the protocol's (`contracts/reports.ts`),
 * which parse the text and document it alike.
 */
export { analyticsQuery, eventsQuery } from '@pathlight/protocol'
