/**
 * A scripted HTTP server on loopback for the client's unit tests: each request gets the next answer of
 * the script (the last one repeats), and every request is recorded.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer: a status with headers and a body (objects are sent as JSON), or a failure mode. */
export type StubAnswer =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | 'hang'
  | 'destroy'

export interface RecordedRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export interface StubServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  requests: RecordedRequest[]
  /** Replace the script; the request count is reset. */
  script(...answers: StubAnswer[]): void
  close(): Promise<void>
}

export async function startStubServer(): Promise<StubServer> {
  let answers: StubAnswer[] = [{ status: 200, body: { success: true } }]
  const requests: RecordedRequest[] = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      const answer = answers[Math.min(requests.length, answers.length) - 1] ?? 'destroy'
      if (answer === 'hang') return
      if (answer === 'destroy') {
        request.socket.destroy()
        return
      }
      const body =
        answer.body === undefined
          ? ''
          : typeof answer.body === 'string'
            ? answer.body
            : JSON.stringify(answer.body)
      response.writeHead(answer.status, {
        'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json',
        ...answer.headers,
      })
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    script(...next) {
      answers = next
      requests.length = 0
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
