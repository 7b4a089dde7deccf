/**
 * `POST /api/sites/{siteId}/reports`: several reports of a site in one request, e.g.
 * every panel of the dashboard's overview. The common query parameters (start_date, end_date, time_zone,
 * filters) are the request's query string, as on the GET report routes, and shared by every part; each
 * part names a report and its own options (`params`), which are what the GET route takes in its query
 * string beside the common ones. The answer holds each part's `{data, meta}`, exactly as its GET route
 * answers, keyed by the part's `id` (its `name` when it has none).
 */
import { z } from 'zod'
import { analyticsQuery } from './analytics-query.js'
import { annotation } from './annotation-schemas.js'
import {
  type BatchReportName,
  batchReportNames,
  type ReportRegistration,
  reportRegistry,
} from './contracts/report-registry.js'
import { doc, jsonCheckOf, jsonValueOf, openApiRegistry } from './openapi-registry.js'
import { successList } from './schemas.js'

/** Most parts in one batch. */
export const MAX_REPORT_PARTS = 20

/** The reports a batch may hold: the registered reports it runs, and the annotations list. */
export const reportPartNames = [...batchReportNames, 'annotations'] as const
export type ReportPartName = BatchReportName | 'annotations'

const partId = doc(
  z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'id must be 1-64 letters, digits or _ . : -'),
  'The key of this part in the answer (default: `name`); unique in the batch',
).optional()

type Registration<N extends BatchReportName> = (typeof reportRegistry)[N]
type QueryShape<N extends BatchReportName> = Registration<N>['endpoint'] extends {
  query: z.ZodObject<infer Shape>
}
  ? Shape
  : Record<never, never>
type PathShape<N extends BatchReportName> = Registration<N>['endpoint'] extends {
  params: z.ZodObject<infer Shape>
}
  ? Shape
  : Record<never, never>
/** The names of a part's parameters (see `partParams`). */
type PartParamName<N extends BatchReportName> =
  | Exclude<keyof QueryShape<N>, keyof typeof analyticsQuery.shape>
  | (Registration<N> extends { paged: true } ? Extract<keyof QueryShape<N>, 'page' | 'limit'> : never)
  | Exclude<keyof PathShape<N>, 'siteId'>
/** A part's parameters: as its GET route parses them (a list a list, a number a number). */
type PartParams<N extends BatchReportName> = Pick<
  z.output<z.ZodObject<QueryShape<N> & PathShape<N>>>,
  PartParamName<N> & keyof z.output<z.ZodObject<QueryShape<N> & PathShape<N>>>
>

/** One part of a batch: which report, and its own parameters. */
export type ReportPart =
  | {
      [N in BatchReportName]: { id?: string | undefined; name: N; params?: PartParams<N> | undefined }
    }[BatchReportName]
  | { id?: string | undefined; name: 'annotations'; params?: Record<never, never> | undefined }

/**
 * The names of a registered report's own query parameters, in its GET query's order: those
 * `analyticsQuery` does not hold, and `page` and `limit` where it is `paged` and its query has them.
 */
function ownQueryKeys(name: BatchReportName): string[] {
  const { endpoint, ...registration } = reportRegistry[name] as ReportRegistration
  return Object.keys(endpoint.query?.shape ?? {}).filter(
    (key) =>
      !(key in analyticsQuery.shape) || (registration.paged === true && (key === 'page' || key === 'limit')),
  )
}

/**
 * A registered report's part parameters, derived from its GET contract: its own query parameters
 * (`ownQueryKeys`) and its path parameters but the site (the breakdown's `name`); each as the JSON
 * value its parser stands for (`jsonValueOf`), optional where the GET parameter is. The server checks
 * the query's ones again with `partQueryChecks` (the bounds the document leaves out, with the GET
 * route's messages) and lays them over the common parameters, as values.
 */
function partParams(name: BatchReportName): Record<string, z.ZodType> {
  const { endpoint } = reportRegistry[name] as ReportRegistration
  const query = endpoint.query?.shape ?? {}
  const path = Object.keys(endpoint.params?.shape ?? {}).filter((key) => key !== 'siteId')
  const shape: Record<string, z.ZodType> = {}
  for (const key of ownQueryKeys(name)) {
    const parameter = query[key] as z.ZodType
    const value = jsonValueOf(parameter)
    const list = value instanceof z.ZodArray
    const description = list
      ? `As \`${key}\` of the GET route, a list here`
      : (descriptionOf(parameter) ?? `As \`${key}\` of the GET route`)
    const documented = doc(value, description)
    shape[key] = parameter.safeParse(undefined).success ? documented.optional() : documented
  }
  for (const key of path) shape[key] = endpoint.params?.shape[key] as z.ZodType
  return shape
}

/**
 * A registered report's own query parameters (`ownQueryKeys`) as a batch part's JSON carries them,
 * each parsed with every check its GET route makes of its text and the same messages (`jsonCheckOf`:
 * `limit` 5000 is `limit must be an integer from 1 to 1000`), optional where the GET parameter is.
 * Their values are the GET route's parsed values: a number a number, a list an array.
 */
export function partQueryChecks(name: BatchReportName): z.ZodObject {
  const query = (reportRegistry[name] as ReportRegistration).endpoint.query?.shape ?? {}
  const shape: Record<string, z.ZodType> = {}
  for (const key of ownQueryKeys(name)) {
    const parameter = query[key] as z.ZodType
    const check = jsonCheckOf(parameter)
    shape[key] = parameter.safeParse(undefined).success ? check.optional() : check
  }
  return z.object(shape)
}

/**
 * The common parameters a registered report's part takes from the batch's query string, as the
 * batch's contract parsed them (`analyticsQuery`): those its GET query holds (a `paged` part's own
 * `page` and `limit` over them).
 * @throws Error when its GET query parses one of them otherwise than `analyticsQuery` (the part would
 *   not answer as its GET route)
 */
export function partCommonKeys(name: BatchReportName): string[] {
  const query = (reportRegistry[name] as ReportRegistration).endpoint.query?.shape ?? {}
  const common = Object.keys(query).filter((key) => key in analyticsQuery.shape)
  for (const key of common) {
    if (query[key] !== analyticsQuery.shape[key as keyof typeof analyticsQuery.shape])
      throw new Error(`the batch part ${name}: its query parses ${key} otherwise than analyticsQuery`)
  }
  return common
}

/** A query parameter's description, through `.optional()`. */
function descriptionOf(schema: z.ZodType): string | undefined {
  const description = openApiRegistry.get(schema)?.description
  if (description !== undefined || !(schema instanceof z.ZodOptional)) return description
  return descriptionOf(schema.unwrap() as z.ZodType)
}

const part = (name: ReportPartName, params: Record<string, z.ZodType>) =>
  z.strictObject({ id: partId, name: z.literal(name), params: z.strictObject(params).optional() })

/** One part of a batch: which report, and its own parameters. */
export const reportPart = z.discriminatedUnion(
  'name',
  [...batchReportNames.map((name) => part(name, partParams(name))), part('annotations', {})] as unknown as [
    ReturnType<typeof part>,
    ...ReturnType<typeof part>[],
  ],
  { error: `name must be one of ${reportPartNames.join(', ')}` },
) as unknown as z.ZodType<ReportPart, ReportPart>

/** The body of `POST /api/sites/{siteId}/reports`. */
export const reportBatchBody = z.strictObject({
  reports: doc(
    z.array(reportPart).min(1).max(MAX_REPORT_PARTS),
    `The reports, 1 to ${MAX_REPORT_PARTS}; all run over the query string's range and filters`,
  ),
})
export type ReportBatchBody = z.infer<typeof reportBatchBody>

/** What one part answers: its GET route's `{data, meta}` (its contract's success answer). */
export const reportPartAnswer = z.union([
  ...batchReportNames.map((name) => {
    const answer = (reportRegistry[name] as ReportRegistration).endpoint.responses[200]
    if (typeof answer !== 'object' || answer.schema === undefined)
      throw new Error(`the batch report ${name} answers no JSON`)
    return answer.schema
  }),
  successList(annotation),
])

/** The answer of `POST /api/sites/{siteId}/reports`: every part's answer under its id. */
export const reportBatchAnswer = z.object({
  success: z.literal(true),
  data: doc(
    z.record(z.string(), reportPartAnswer),
    "Per part id (or name), the part's `{data, meta}`, as its GET route answers",
  ),
})
