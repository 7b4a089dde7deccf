/**
 * One request for the reports a page shows at first paint (`POST .../reports`): the cards ask the batch
 * for their part, and the batch sends the request on the first ask it can answer, so that every card
 * of one render shares it. A part is answered from the batch when the batch holds the same part (the
 * same report and parameters, whatever its id) or a longer first page of it (its first rows are the
 * page asked); any other part (another tab, a larger page) is loaded alone, with its GET request.
 */
import type { PartAnswer, RegisteredPart } from '../api/part-request'

export interface ReportBatch {
  /** The answer to `part`: from the batch when it holds the part or a longer page of it, else alone. */
  load<P extends RegisteredPart>(part: P): Promise<PartAnswer<P['name']>>
}

type Params = Record<string, unknown>

/** Whether two parameter values are the same (text, numbers, booleans or lists of them). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The parameters of `a` and `b` but `except` are the same, none missing from either. */
function sameParams(a: Params, b: Params, except?: string): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  keys.delete(except ?? '')
  return [...keys].every((key) => same(a[key], b[key]))
}

/**
 * How `held`'s answer answers `asked`: as it is (the same part), by its first rows (the first page of
 * a larger `limit`, neither naming a page), or not at all (undefined).
 */
export function answerOf(
  held: RegisteredPart,
  asked: RegisteredPart,
): ((answer: unknown) => unknown) | undefined {
  if (held.name !== asked.name) return undefined
  const a: Params = held.params ?? {}
  const b: Params = asked.params ?? {}
  if (sameParams(a, b)) return (answer) => answer
  const longer =
    typeof a.limit === 'number' &&
    typeof b.limit === 'number' &&
    a.limit > b.limit &&
    a.page === undefined &&
    b.page === undefined &&
    sameParams(a, b, 'limit')
  if (!longer) return undefined
  const limit = b.limit as number
  return (answer) => firstRows(answer as Page<unknown>, limit)
}

/**
 * A batch of `parts` that `send` fetches, at most once.
 * @param send resolves with each part's answer by id, its name without one (`ReportsApi.batch`)
 * @param single loads a part the batch cannot answer (`ReportsApi.part`)
 */
export function createReportBatch(
  parts: readonly RegisteredPart[],
  send: (parts: RegisteredPart[]) => Promise<Record<string, unknown>>,
  single: <P extends RegisteredPart>(part: P) => Promise<PartAnswer<P['name']>>,
): ReportBatch {
  let answers: Promise<Record<string, unknown>> | undefined
  return {
    async load<P extends RegisteredPart>(part: P) {
      for (const held of parts) {
        const pick = answerOf(held, part)
        if (!pick) continue
        answers ??= send([...parts])
        return pick((await answers)[held.id ?? held.name]) as PartAnswer<P['name']>
      }
      return single(part)
    },
  }
}

/** A page of rows as the paged reports answer it. */
interface Page<Row> {
  data: Row[]
  meta: { total: number; page: number; pageSize: number; totalPages: number }
}

/** The first `limit` rows of a page of rows, with its `meta` as a page of `limit` would have it. */
export function firstRows<Row, A extends Page<Row>>(answer: A, limit: number): A {
  return {
    ...answer,
    data: answer.data.slice(0, limit),
    meta: { ...answer.meta, pageSize: limit, totalPages: Math.ceil(answer.meta.total / limit) },
  }
}
