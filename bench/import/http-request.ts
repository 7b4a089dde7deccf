import http from 'node:http'
import type { Readable } from 'node:stream'

/** What a request answered: status, body text, and seconds from sending to the last byte. */
export interface Answer {
  status: number
  body: string
  seconds: number
}

/**
 * One HTTP/1.1 request over node:http (no response timeout: an import answers when it has read the
 * whole body, which for a million events takes minutes).
 * @param body streamed as it is read (chunked), or none
 * @param sink when given, receives the response body instead of `Answer.body` (e.g. a file)
 */
export function request(
  url: string,
  options: {
    method: string
    headers?: Record<string, string>
    body?: Readable
    sink?: NodeJS.WritableStream
  },
): Promise<Answer> {
  const started = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method, headers: options.headers }, (res) => {
      let text = ''
      if (options.sink) res.pipe(options.sink)
      else res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('error', reject)
      const done = () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
        })
      if (options.sink) options.sink.on('finish', done)
      else res.on('end', done)
    })
    req.on('error', reject)
    if (options.body) {
      options.body.on('error', (error) => req.destroy(error))
      options.body.pipe(req)
    } else req.end()
  })
}
