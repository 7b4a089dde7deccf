/**
 * The lines of a streamed NDJSON body, read as they arrive (never the whole body in memory): split at
 * `\n` (a `\r` before it dropped), decoded as UTF-8 across chunk boundaries. Bounds keep one request
 * from holding the process: at most `maxBytes` in all and `maxLineBytes` per line.
 */
import { StringDecoder } from 'node:string_decoder'
import { AppError } from '../shared/errors.js'

export interface NdjsonLimits {
  /** Whole body, bytes. */
  maxBytes: number
  /** One line, bytes (its line break excluded). */
  maxLineBytes: number
}

/**
 * @param body the request's byte stream
 * @throws AppError 413 when the body or a line is over its limit (the lines before were yielded)
 */
export async function* ndjsonLines(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  limits: NdjsonLimits,
): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  let total = 0
  let pending = ''
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length
    total += bytes
    if (total > limits.maxBytes) {
      throw new AppError(413, `The body is over ${limits.maxBytes} bytes; the lines before were imported`)
    }
    const text = pending + (typeof chunk === 'string' ? chunk : decoder.write(chunk))
    let start = 0
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const line = text.slice(start, end)
      if (overLimit(line, limits.maxLineBytes)) throw lineTooLong(limits)
      yield line.endsWith('\r') ? line.slice(0, -1) : line
      start = end + 1
    }
    pending = text.slice(start)
    if (overLimit(pending, limits.maxLineBytes)) throw lineTooLong(limits)
  }
  pending += decoder.end()
  if (pending !== '') {
    if (overLimit(pending, limits.maxLineBytes)) throw lineTooLong(limits)
    yield pending.endsWith('\r') ? pending.slice(0, -1) : pending
  }
}

/** Whether `text` is over `maxBytes` in UTF-8 (a UTF-16 unit takes at most 3 bytes: count only then). */
const overLimit = (text: string, maxBytes: number) =>
  text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes

const lineTooLong = (limits: NdjsonLimits) =>
  new AppError(413, `A line is over ${limits.maxLineBytes} bytes; the lines before were imported`)
