import type { ServerProcess } from './load-server-contract.js'

/**
 * Reads the server's `GET /api/admin/ingest-stats` with the site's API key (5 s timeout).
 *
 * @returns the parsed JSON, or `{ unavailable: <reason> }` when it did not answer 2xx; never throws.
 */
export async function readIngestStats(server: ServerProcess): Promise<unknown> {
  try {
    const response = await fetch(`${server.baseUrl}/api/admin/ingest-stats`, {
      headers: { Authorization: `Bearer ${server.apiKey}` },
      signal: AbortSignal.timeout(5_000),
    })
    if (!response.ok) return { unavailable: `HTTP ${response.status}` }
    return (await response.json()) as unknown
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) }
  }
}
