/**
 * The JSON objects of an NDJSON body, numbered from 1 by line: blank lines are skipped (but counted), and a
 * line that is not JSON, not an object, or nested past `MAX_JSON_DEPTH` is an error naming its line (and
 * the field, for depth). The shared first step of the NDJSON and GA4 imports.
 */
import { tooDeep } from '../shared/too-deep.js'

export type JsonObjectLine =
  | { line: number; value: Record<string, unknown> }
  | { line: number; error: string }

/**
 * @param lines the body's lines without their line breaks (`ndjson-lines.ts`)
 * @param what what a line must be, for the error (`a JSON object` by default)
 */
export async function* jsonObjectLines(
  lines: AsyncIterable<string> | Iterable<string>,
  what = 'a JSON object',
): AsyncGenerator<JsonObjectLine> {
  let line = 0
  for await (const text of lines) {
    line++
    if (text.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      yield { line, error: 'The line is not valid JSON' }
      continue
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { line, error: `The line must be ${what}` }
      continue
    }
    const deep = tooDeep(value)
    yield deep ? { line, error: deep.message } : { line, value: value as Record<string, unknown> }
  }
}
