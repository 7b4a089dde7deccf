import autocannon from 'autocannon'
import type { TrackRequest } from './track-bodies.js'

/** What one load run measured. */
export interface LoadResult {
  /** Mean requests per second over the run (autocannon's per-second samples). */
  reqPerSec: number
  /**
   * Latency percentiles in milliseconds over all responses, from autocannon's per-response float
   * timings (its own histogram truncates to whole ms, which reads 0 ms for a fast local server).
   */
  p50Ms: number
  p99Ms: number
  /** Responses received, and those with status 200 whose body is not `tracked:false`/`success:false`. */
  responses: number
  acknowledged: number
  /** Responses by status code, e.g. `{ '200': 51234, '429': 3 }`. */
  statuses: Record<string, number>
  /** Connection errors and timeouts. */
  errors: number
  timeouts: number
  durationSec: number
}

/**
 * Loads `POST {baseUrl}/api/track` with autocannon: `connections` keep-alive connections, pipelining 1,
 * for `seconds`. Each connection cycles through all `requests`, starting at its own offset so the
 * connections send different bodies at any moment.
 *
 * @param opts.headers extra headers for every request (e.g. `Authorization`); `Content-Type:
 *   application/json`, the request's `User-Agent` and its visitor's address as `X-Forwarded-For` are
 *   always set.
 * @returns measured figures; it rejects only if autocannon cannot start.
 */
export async function runLoad(opts: {
  baseUrl: string
  requests: readonly TrackRequest[]
  seconds: number
  connections?: number
  headers?: Record<string, string>
}): Promise<LoadResult> {
  const connections = opts.connections ?? 50
  let acknowledged = 0
  let responses = 0
  const statuses: Record<string, number> = {}
  const onResponse = (status: number, body: string): void => {
    responses++
    statuses[status] = (statuses[status] ?? 0) + 1
    if (status === 200 && !/"(?:tracked|success)"\s*:\s*false/.test(body)) acknowledged++
  }
  const requests: autocannon.Request[] = opts.requests.map((request) => ({
    method: 'POST',
    path: '/api/track',
    headers: {
      ...opts.headers,
      'content-type': 'application/json',
      'user-agent': request.userAgent,
      'x-forwarded-for': request.ip,
    },
    body: request.body,
    onResponse,
  }))
  if (requests.length === 0) throw new Error('runLoad: no requests to send')
  const stride = Math.max(1, Math.floor(requests.length / connections))
  let clientIndex = 0
  const setupClient = (client: autocannon.Client): void => {
    const offset = (clientIndex++ * stride) % requests.length
    client.setRequests([...requests.slice(offset), ...requests.slice(0, offset)])
  }

  const latencies: number[] = []
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = {
      url: opts.baseUrl,
      connections,
      pipelining: 1,
      duration: opts.seconds,
      requests,
      setupClient,
    }
    const instance = autocannon(options, (error: Error | null, done: autocannon.Result) =>
      error ? reject(error) : resolve(done),
    )
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime)
    })
  })
  latencies.sort((a, b) => a - b)
  return {
    reqPerSec: result.requests.average,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    responses,
    acknowledged,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSec: result.duration,
  }
}

/** Nearest-rank percentile of ascending `sorted` values; 0 when empty. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[rank] ?? 0
}
