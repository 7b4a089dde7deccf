/**
 * The common query parameters of the analytics reads: the protocol's `analyticsQuery`, with which
 * `query/params.ts` parses them; each report's own parameters are in its contract (`@pathlight/protocol`
 * `contracts/`).
 */
export { analyticsQuery } from '@pathlight/protocol'
