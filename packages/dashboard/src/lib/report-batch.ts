/**
 * One request for the reports a page shows at first paint (`POST .../reports`): the cards ask the batch
 * for their part by id, and the batch sends the request on the first ask, so that every card of one
 * render shares it. A card asking for something the batch does not hold (another tab, a larger page)
 * loads it with its own GET request (`fallback`).
 */
import type { ReportPart } from '@pathlight/protocol'

export interface ReportBatch {
  /**
   * The part `id` of the batch, else `fallback()`.
   * @param pick derives the answer from the part's (e.g. the first rows of a longer page)
   */
  load<T>(id: string | undefined, fallback: () => Promise<T>, pick?: (answer: T) => T): Promise<T>
}

/**
 * A batch of `parts` that `send` fetches, at most once.
 * @param send resolves with each part's answer by id (`ReportsApi.batch`)
 */
export function createReportBatch(
  parts: readonly ReportPart[],
  send: (parts: ReportPart[]) => Promise<Record<string, unknown>>,
): ReportBatch {
  const ids = new Set(parts.map((part) => part.id ?? part.name))
  let answers: Promise<Record<string, unknown>> | undefined
  return {
    async load<T>(id: string | undefined, fallback: () => Promise<T>, pick = (answer: T) => answer) {
      if (id === undefined || !ids.has(id)) return fallback()
      answers ??= send([...parts])
      return pick((await answers)[id] as T)
    },
  }
}

/** The first `limit` rows of a page of rows, with its `meta` as a page of `limit` would have it. */
export function firstRows<Row>(
  answer: { data: Row[]; meta: { total: number; page: number; pageSize: number; totalPages: number } },
  limit: number,
) {
  return {
    data: answer.data.slice(0, limit),
    meta: { ...answer.meta, pageSize: limit, totalPages: Math.ceil(answer.meta.total / limit) },
  }
}
