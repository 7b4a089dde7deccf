/**
 * NDJSON lines as import entries: a line with `eventId` is an exported event (validated by
 * `exportedEventSchema`, taken as is); any other JSON object is raw tracking fields. A line nested past
 * `MAX_JSON_DEPTH` is rejected naming its field. Blank lines are
 * skipped (but counted in the numbering).
 */
import { tooDeep } from '../shared/too-deep.js'
import { exportedEventSchema, fromExportedEvent } from './exported-event.js'
import { firstIssue } from './first-issue.js'
import type { ImportEntry } from './import-entry.js'

/** @param lines the body's lines without their line breaks (`ndjson-lines.ts`) */
export async function* ndjsonEntries(
  lines: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<ImportEntry> {
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
      yield { line, error: 'The line must be a JSON object' }
      continue
    }
    const deep = tooDeep(value)
    if (deep) {
      yield { line, error: deep.message }
      continue
    }
    const record = value as Record<string, unknown>
    if (!('eventId' in record)) {
      yield { line, raw: record }
      continue
    }
    const parsed = exportedEventSchema.safeParse(record)
    yield parsed.success
      ? { line, stored: fromExportedEvent(parsed.data) }
      : { line, error: firstIssue(parsed.error.issues) }
  }
}
