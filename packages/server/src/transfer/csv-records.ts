/**
 * The records of a streamed CSV body (RFC 4180, as PostgreSQL's `COPY ... WITH CSV` writes it), read
 * as they arrive with `csv-parse` (never the whole body in memory): fields as strings (quotes removed,
 * doubled quotes undone, line breaks inside quotes kept), rows ending in `\n` or `\r\n`, a UTF-8 BOM
 * dropped, blank lines skipped. Records may differ in length (the consumer names the row). Bounds as
 * for NDJSON: at most `maxBytes` in all, `maxRecordChars` per record.
 */
import { Readable } from 'node:stream'
import { CsvError, parse } from 'csv-parse'
import { AppError } from '../shared/errors.js'

export interface CsvLimits {
  /** Whole body, bytes. */
  maxBytes: number
  /** One record, characters (its fields and separators). */
  maxRecordChars: number
}

/** One record and its position: `record` numbers records from 1 (the header, when there is one, is 1). */
export interface CsvRecord {
  record: number
  fields: string[]
}

/**
 * @param body the request's byte stream
 * @throws AppError 413 when the body or a record is over its limit; 400 when the CSV is malformed (an
 *   unclosed quote, text after a closing quote), naming the line. Records before were yielded.
 */
export async function* csvRecords(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limits: CsvLimits,
): AsyncGenerator<CsvRecord> {
  const source = Readable.from(limitedBytes(body, limits.maxBytes), { objectMode: false })
  const parser = parse({
    bom: true,
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: limits.maxRecordChars,
    info: true,
  })
  source.on('error', (error) => parser.destroy(error))
  source.pipe(parser)
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[]
      info: { records: number }
    }>) {
      yield { record: info.records, fields: record }
    }
  } catch (error) {
    throw toAppError(error, limits)
  } finally {
    source.destroy()
    parser.destroy()
  }
}

/** The chunks of `body`, failing once more than `maxBytes` came. */
async function* limitedBytes(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<Buffer> {
  let total = 0
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    total += bytes.length
    if (total > maxBytes) {
      throw new AppError(413, `The body is over ${maxBytes} bytes; the rows before were imported`)
    }
    yield bytes
  }
}

function toAppError(error: unknown, limits: CsvLimits): unknown {
  if (!(error instanceof CsvError)) return error
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return new AppError(
      413,
      `A row is over ${limits.maxRecordChars} characters; the rows before were imported`,
    )
  }
  const line = (error as CsvError & { lines?: number }).lines
  return new AppError(
    400,
    `The CSV is malformed${line === undefined ? '' : ` at line ${line}`}: ${error.message}`,
  )
}
