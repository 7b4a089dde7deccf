import type { ServerProcess } from './load-server-contract.js'

const WAIT_MS = 60_000
const STABLE_MS = 3_000
const POLL_MS = 250

/**
 * Polls the server's `countEvents()` until it reaches `expected`, or stops changing for 3 s, or 60 s
 * have passed.
 *
 * @returns the last count read (committed event rows of the site).
 * @throws if `countEvents()` fails.
 */
export async function waitForCommitted(server: ServerProcess, expected: number): Promise<number> {
  const deadline = Date.now() + WAIT_MS
  let count = await server.countEvents()
  let changedAt = Date.now()
  while (count < expected && Date.now() < deadline && Date.now() - changedAt < STABLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const next = await server.countEvents()
    if (next !== count) changedAt = Date.now()
    count = next
  }
  return count
}
