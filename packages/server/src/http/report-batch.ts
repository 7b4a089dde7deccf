/**
 * `POST /api/sites/{siteId}/reports`: several reports of one site in one request (its contract,
 * `contracts/reports.ts` of the protocol, parses the common parameters and the body).
 * The query string carries the common parameters (start_date, end_date, time_zone, filters; `page` and
 * `limit` there are defaults for every part); the body lists the parts (`reportBatchBody` of the
 * protocol), each with its own parameters, which are laid over the query string and parsed exactly as
 * the GET route of that report parses its query string (`report-parts.ts`), so a part answers what its
 * GET route answers.
 *
 * Every part is validated before any runs: an invalid one is AppError 400 naming it, e.g.
 * `Invalid reports[3].params.limit: limit must be an integer from 1 to 1000` with
 * `details.fieldErrors['reports[3].params.limit']` (a bad common parameter keeps its own name).
 * The parts then run concurrently (and the answer waits for all of them, failed or not): on chDB over
 * the store's pool of sessions (`chdb-store.ts`; two at once take less than two in a row, see
 * bench/README.md "query: chDB parallelism"), on a ClickHouse server (`CLICKHOUSE_URL`) side by side. The
 * answer comes once all are done.
 */
import { analyticsQuery, type ReportBatchBody, type ReportPart, reportRegistry } from '@pathlight/protocol'
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

/** A part's own parameters as a query string would carry them (`type` lists joined with commas). */
function asQueryValues(params: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue
    values[key] = Array.isArray(value) ? value.join(',') : String(value)
  }
  return values
}

/** The shared query string as an object (Fastify's `request.query`; anything else counts as empty). */
const queryObject = (query: unknown): Record<string, unknown> =>
  typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {}

/**
 * Validate one part and return it ready to run.
 * @throws AppError 400 with the part's parameters named `reports[i].params.<name>`
 */
function preparePart(
  deps: ReportPartDeps,
  siteId: number,
  query: Record<string, unknown>,
  part: ReportPart,
  index: number,
): PreparedReport {
  const { name: dimension, ...own } = (part.params ?? {}) as Record<string, unknown>
  const params = part.name === 'breakdown' ? own : (part.params ?? {})
  const merged = { ...query, ...asQueryValues(params) }
  const prefix = `reports[${index}].params`
  const rename = (error: unknown) =>
    renamed(error, (field) => (field in params || field === 'name' ? `${prefix}.${field}` : field))
  let run: PreparedReport
  try {
    run = prepareKind(deps, siteId, merged, part, dimension)
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
 * Parse a part's query string (the shared one with the part's own parameters over it) with its
 * report's registered query schema, exactly as its GET route does, and prepare it.
 */
function prepareKind(
  deps: ReportPartDeps,
  siteId: number,
  query: Record<string, unknown>,
  part: ReportPart,
  dimension: unknown,
): PreparedReport {
  const name = part.name
  if (name === 'annotations') return reportParts.annotations(deps, siteId, parseParams(analyticsQuery, query))
  if (name === 'live') return reportParts.live(deps, siteId)
  if (name === 'breakdown') {
    const dimensionName = String(dimension)
    if (!isBreakdown(dimensionName)) {
      throw invalidParameters({ name: [`Unknown breakdown "${dimensionName}"; one of ${breakdownNames()}`] })
    }
    const parsed = parseParams(reportRegistry.breakdown.endpoint.query, query)
    return reportParts.breakdown(deps, siteId, parsed, dimensionName)
  }
  const parsed = parseParams(reportRegistry[name].endpoint.query, query)
  return (reportParts[name] as (d: ReportPartDeps, s: number, q: unknown) => PreparedReport)(
    deps,
    siteId,
    parsed,
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
 * @param query the request's query string as sent (the common parameters, which its contract parsed)
 * @param body the request's body, parsed by its contract
 * @returns `{success:true, data:{[id or name]: {data, meta}}}`
 * @throws AppError 400 for a duplicate id or an invalid part, before any query runs
 */
export async function runReportBatch(
  deps: ReportPartDeps,
  siteId: number,
  query: unknown,
  body: ReportBatchBody,
): Promise<{ success: true; data: Record<string, ReportAnswer> }> {
  const shared = queryObject(query)
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
    return [id, preparePart(deps, siteId, shared, part, index)] as const
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
