/**
 * One delivery attempt: an HTTP POST of the exact body with the signature headers, cut off after
 * `timeoutMs` (default 10 s, the spec's limit). Never throws: every outcome is a result to record.
 * Success = a 2xx status. The response body is kept up to 2,048 characters.
 */
import http from 'node:http'
import https from 'node:https'
import { guardedLookup, isPublicAddress } from './url-guard.js'

export const RESPONSE_BODY_LIMIT = 2048

export interface AttemptResult {
  ok: boolean
  statusCode: number | null
  responseBody: string
  error: string | null
  durationMs: number
}

export interface PostOptions {
  timeoutMs: number
  allowPrivate: boolean
}

export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<AttemptResult> {
  const started = performance.now()
  const done = (partial: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
    ...partial,
    durationMs: Math.round(performance.now() - started),
  })
  return new Promise((resolve) => {
    let target: URL
    try {
      target = new URL(url)
    } catch {
      resolve(done({ ok: false, statusCode: null, responseBody: '', error: 'invalid URL' }))
      return
    }
    const host = target.hostname.replace(/^\[|\]$/g, '')
    if (!options.allowPrivate && /^[\d.]+$|:/.test(host) && !isPublicAddress(host)) {
      resolve(
        done({
          ok: false,
          statusCode: null,
          responseBody: '',
          error: `refused: ${host} is not a public address`,
        }),
      )
      return
    }
    const client = target.protocol === 'https:' ? https : http
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        lookup: guardedLookup(options.allowPrivate),
        timeout: options.timeoutMs,
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          if (text.length < RESPONSE_BODY_LIMIT) text += chunk
        })
        response.on('end', () => {
          clearTimeout(deadline)
          const status = response.statusCode ?? 0
          resolve(
            done({
              ok: status >= 200 && status < 300,
              statusCode: status,
              responseBody: text.slice(0, RESPONSE_BODY_LIMIT),
              error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
            }),
          )
        })
        response.on('error', (error) => {
          clearTimeout(deadline)
          resolve(done({ ok: false, statusCode: status(response), responseBody: text, error: error.message }))
        })
      },
    )
    // The whole attempt, headers and body, must finish within the limit.
    const deadline = setTimeout(
      () => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)),
      options.timeoutMs,
    )
    request.on('timeout', () => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)))
    request.on('error', (error) => {
      clearTimeout(deadline)
      resolve(done({ ok: false, statusCode: null, responseBody: '', error: error.message }))
    })
    request.end(body)
  })
}

const status = (response: http.IncomingMessage) => response.statusCode ?? null
