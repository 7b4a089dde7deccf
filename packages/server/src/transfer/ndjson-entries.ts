/**
 * NDJSON lines as import entries: a line with `eventId` is an exported event (validated by
 * `exportedEventSchema`, taken as is); any other JSON object is raw tracking fields. A line nested past
 * `MAX_JSON_DEPTH` is rejected naming its field. Blank lines are
 * skipped (but counted in the numbering).
 */
import { exportedEventSchema, fromExportedEvent } from './exported-event.js'
import { firstIssue } from './first-issue.js'
import type { ImportEntry } from './import-entry.js'
import { jsonObjectLines } from './json-object-lines.js'

/** @param lines the body's lines without their line breaks (`ndjson-lines.ts`) */
export async function* ndjsonEntries(
  lines: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<ImportEntry> {
  for await (const entry of jsonObjectLines(lines)) {
    if ('error' in entry) {
      yield entry
      continue
    }
    const { line, value: record } = entry
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
