/**
 * Test support: a real HTTP receiver on loopback that records every webhook request (headers and the
 * exact body) and answers as the test tells it (status per request, or hang).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders
  body: string
  at: number
}

export interface WebhookReceiver {
  url: string
  received: ReceivedRequest[]
  /** Decide the answer to the next requests: a status code, or 'hang' to never answer. */
  respond(plan: (request: ReceivedRequest, index: number) => number | 'hang'): void
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = []
  let plan: (request: ReceivedRequest, index: number) => number | 'hang' = () => 200
  const server = http.createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', () => {
      const entry = { headers: request.headers, body, at: Date.now() }
      received.push(entry)
      const answer = plan(entry, received.length - 1)
      if (answer === 'hang') return
      response.writeHead(answer, { 'content-type': 'text/plain' })
      response.end(answer >= 200 && answer < 300 ? 'ok' : `error ${answer}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    respond(next) {
      plan = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
