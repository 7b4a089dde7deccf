/**
 * `POST /api/sites/{siteId}/reports`: several reports of one site in one request (its contract,
 * `contracts/reports.ts` of the protocol, parses the common parameters and the body).
 * The query string carries the common parameters (start_date, end_date, time_zone, filters, segment;
 * `page` and `limit` there are defaults for every part), parsed once by the batch's contract (a named
 * segment's filters already after the request's own, `route.ts`); the body lists the parts
 * (`reportBatchBody` of the protocol), each with its own parameters as JSON values, which are checked
 * as the GET route of that report checks its query string (`partQueryChecks`: the same bounds and
 * messages) and laid over the common ones, as values (`report-parts.ts`), so a part answers what its
 * GET route answers. Nothing here parses text.
 *
 * Every part is validated before any runs: an invalid one is AppError 400 naming it, e.g.
 * `Invalid reports[3].params.limit: limit must be an integer from 1 to 1000` with
 * `details.fieldErrors['reports[3].params.limit']` (a bad common parameter keeps its own name).
 * The parts then run concurrently (and the answer waits for all of them, failed or not): on chDB over
 * the store's pool of sessions (`chdb-store.ts`; two at once take less than two in a row, see
 * bench/README.md "query: chDB parallelism"), on a ClickHouse server (`CLICKHOUSE_URL`) side by side. The
 * answer comes once all are done.
 */
import {
  type AnalyticsQuery,
  type BatchReportName,
  batchReportNames,
  partCommonKeys,
  partQueryChecks,
  type ReportBatchBody,
  type ReportPart,
} from '@pathlight/protocol'
import type { z } from 'zod'
import { breakdowns } from '../query/breakdown.js'
import { invalidParameters, parseParams } from '../query/params.js'
import { AppError } from '../shared/errors.js'
import {
  isBreakdown,
  type PreparedReport,
  type ReportAnswer,
  type ReportPartDeps,
  reportParts,
} from './report-parts.js'

/** How a registered report's part gets its query: its own parameters' checks, and the common ones it takes. */
interface PartQuery {
  checks: z.ZodObject
  common: readonly string[]
}

/** Each batch report's `PartQuery`, derived from its GET contract once (`@pathlight/protocol` `report-batch.ts`). */
const partQueries = new Map<BatchReportName, PartQuery>(
  batchReportNames.map((name) => [name, { checks: partQueryChecks(name), common: partCommonKeys(name) }]),
)

/**
 * A part's query as its GET route would have parsed it: the common parameters it takes, as the batch's
 * contract parsed them, with its own over them, checked as values.
 * @throws AppError 400 naming the part's own invalid parameter (`limit`, before it is renamed)
 */
function partQuery(name: BatchReportName, shared: AnalyticsQuery, own: Record<string, unknown>): unknown {
  const { checks, common } = partQueries.get(name) as PartQuery
  const query: Record<string, unknown> = {}
  for (const key of common) {
    const value = shared[key as keyof AnalyticsQuery]
    if (value !== undefined) query[key] = value
  }
  return Object.assign(query, parseParams(checks, own))
}

/**
 * Validate one part and return it ready to run.
 * @throws AppError 400 with the part's parameters named `reports[i].params.<name>`
 */
function preparePart(
  deps: ReportPartDeps,
  siteId: number,
  shared: AnalyticsQuery,
  part: ReportPart,
  index: number,
): PreparedReport {
  const { name: dimension, ...own } = (part.params ?? {}) as Record<string, unknown>
  const params = part.name === 'breakdown' ? own : ((part.params ?? {}) as Record<string, unknown>)
  const prefix = `reports[${index}].params`
  const rename = (error: unknown) =>
    renamed(error, (field) => (field in params || field === 'name' ? `${prefix}.${field}` : field))
  let run: PreparedReport
  try {
    run = prepareKind(deps, siteId, shared, params, part, dimension)
  } catch (error) {
    throw rename(error)
  }
  // Some checks happen as a report starts (a bucket that makes too many points): named alike.
  return () =>
    run().catch((error: unknown) => {
      throw rename(error)
    })
}

/**
 * Build a part's query (the common parameters with the part's own over them, `partQuery`), as its
 * report's GET route would have parsed it, and prepare it.
 */
function prepareKind(
  deps: ReportPartDeps,
  siteId: number,
  shared: AnalyticsQuery,
  own: Record<string, unknown>,
  part: ReportPart,
  dimension: unknown,
): PreparedReport {
  const name = part.name
  if (name === 'annotations') return reportParts.annotations(deps, siteId, shared)
  if (name === 'live') return reportParts.live(deps, siteId)
  if (name === 'breakdown') {
    const dimensionName = String(dimension)
    if (!isBreakdown(dimensionName)) {
      throw invalidParameters({ name: [`Unknown breakdown "${dimensionName}"; one of ${breakdownNames()}`] })
    }
    const query = partQuery(name, shared, own) as Parameters<typeof reportParts.breakdown>[2]
    return reportParts.breakdown(deps, siteId, query, dimensionName)
  }
  return (reportParts[name] as (d: ReportPartDeps, s: number, q: unknown) => PreparedReport)(
    deps,
    siteId,
    partQuery(name, shared, own),
  )
}

const breakdownNames = () => Object.keys(breakdowns).join(', ')

/** An AppError 400 of `invalidParameters` with its fields renamed; anything else as it was. */
function renamed(error: unknown, rename: (field: string) => string): unknown {
  if (!(error instanceof AppError) || error.status !== 400) return error
  const details = error.details as { fieldErrors?: Record<string, string[]> } | undefined
  if (!details?.fieldErrors) return error
  return invalidParameters(
    Object.fromEntries(
      Object.entries(details.fieldErrors).map(([field, messages]) => [rename(field), messages]),
    ),
  )
}

/**
 * Run a batch for a site the caller may read.
 * @param query the common parameters, as the batch's contract parsed them (with a named segment's filters)
 * @param body the request's body, parsed by its contract
 * @returns `{success:true, data:{[id or name]: {data, meta}}}`
 * @throws AppError 400 for a duplicate id or an invalid part, before any query runs
 */
export async function runReportBatch(
  deps: ReportPartDeps,
  siteId: number,
  query: AnalyticsQuery,
  body: ReportBatchBody,
): Promise<{ success: true; data: Record<string, ReportAnswer> }> {
  const ids = new Set<string>()
  const prepared = body.reports.map((part, index) => {
    const id = part.id ?? part.name
    if (ids.has(id)) {
      const field = `reports[${index}].id`
      throw invalidParameters({
        [field]: [`the id "${id}" is taken by an earlier part: give each part its own id`],
      })
    }
    ids.add(id)
    return [id, preparePart(deps, siteId, query, part, index)] as const
  })
  // Settled, not `Promise.all`: a part that fails as it starts must not leave the others' queries
  // running after the answer (they would outlive the request, and a closing server's events store).
  const settled = await Promise.allSettled(prepared.map(([, run]) => run()))
  const failed = settled.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
  const answers = settled.map((result) => (result as PromiseFulfilledResult<ReportAnswer>).value)
  return {
    success: true,
    data: Object.fromEntries(prepared.map(([id], i) => [id, answers[i] as ReportAnswer])),
  }
}
