/**
 * The messages of a list field and of its entries: the server keys an entry's problem by its dotted
 * path (`recipients.1`), so the form shows them all under the list's one text box, each naming its
 * entry by number (1-based).
 */
import type { ApiError } from '../api/api-error'

/** Messages for `name` and `name.N`; undefined when there are none. */
export function listFieldErrors(error: ApiError | undefined, name: string): string[] | undefined {
  if (!error) return undefined
  const messages = Object.entries(error.fieldErrors).flatMap(([key, list]) => {
    if (key === name) return list
    const entry = key.startsWith(`${name}.`) ? Number(key.slice(name.length + 1)) : Number.NaN
    return Number.isInteger(entry) ? list.map((m) => `Entry ${entry + 1}: ${m}`) : []
  })
  return messages.length > 0 ? messages : undefined
}
