/**
 * While the stores open (migrations, journal recovery, geolocation data), the port already answers:
 * every request gets 503 `{status:'starting'}` with `Retry-After: 1`, so load balancers and health
 * checks see "not ready" rather than a refused connection. `stop()` frees the port for the app.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StartingServer {
  /** The port actually bound (useful with port 0). */
  port: number
  stop(): Promise<void>
}

/** @throws when the port cannot be bound (e.g. EADDRINUSE) */
export async function listenWhileStarting(port: number, host: string): Promise<StartingServer> {
  const server = http.createServer((_request, response) => {
    response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', connection: 'close' })
    response.end(JSON.stringify({ status: 'starting' }))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
