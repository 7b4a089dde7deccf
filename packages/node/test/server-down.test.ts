/**
 * A server that is down: a loopback port that was just closed refuses connections, and the client
 * rejects with PathlightNetworkError after exactly 1 + maxRetries attempts (tiny backoff keeps it fast).
 */
import net from 'node:net'
import { afterEach, expect, it, vi } from 'vitest'
import { Pathlight } from '../src/client.js'
import { PathlightNetworkError } from '../src/errors.js'

afterEach(() => {
  vi.restoreAllMocks()
})

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

it('rejects with a network error after the bounded retries', async () => {
  const port = await closedPort()
  const lines: string[] = []
  vi.spyOn(console, 'log').mockImplementation((line: string) => {
    lines.push(line)
  })
  const client = new Pathlight({
    analyticsHost: `http://127.0.0.1:${port}/api`,
    siteId: 1,
    apiKey: 'pl_key_for_a_dead_server',
    maxRetries: 3,
    backoffBaseMs: 2,
    backoffMaxMs: 10,
    debug: true,
  })
  const started = Date.now()
  const error = await client.event('signup', { pathname: '/' }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(Date.now() - started).toBeLessThan(2000)
  expect(error).toBeInstanceOf(PathlightNetworkError)
  const network = error as PathlightNetworkError
  expect(network).toMatchObject({
    kind: 'network',
    status: undefined,
    body: undefined,
    attempts: 4,
    timedOut: false,
    code: 'ECONNREFUSED',
  })
  expect(network.message).toBe(
    `Pathlight: network error: POST http://127.0.0.1:${port}/api/track failed: connect ECONNREFUSED ` +
      `127.0.0.1:${port} after 4 attempts`,
  )
  expect(network.cause).toBeInstanceOf(Error)
  expect(lines.filter((line) => line.includes('POST http://'))).toHaveLength(4)
  expect(lines.filter((line) => line.includes('retrying in'))).toHaveLength(3)
})
