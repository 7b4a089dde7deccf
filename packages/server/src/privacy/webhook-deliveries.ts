/**
 * The webhook deliveries that carry a visitor: the metadata store keeps every delivery's JSON body
 * (`webhook_delivery.payload`, for the delivery log and retries), and `session.created`,
 * `event.tracked` and `goal.converted` bodies name the visitor (`data.userId`) and their session
 * (`data.sessionId`, `webhooks/webhook-events.ts`). An erasure deletes those deliveries with their
 * attempts (ON DELETE CASCADE), sent or pending: a pending one is then never sent.
 */
import type { MetadataDb } from '../storage/metadata/db.js'

/** Deliveries examined per query while looking for the visitor's. */
const PAGE = 500

/**
 * Delete the site's deliveries whose body names the visitor or one of their sessions.
 * Candidates are found with a LIKE on the body (over-inclusive: case-insensitive on SQLite, `%`, `_`
 * and escapes match more), and each is then parsed and matched exactly.
 * @param sessionIds the visitor's sessions (a `session.created` body names them)
 * @returns the number of deliveries deleted
 */
export async function deleteVisitorDeliveries(
  db: MetadataDb,
  siteId: number,
  userId: string,
  sessionIds: readonly string[],
): Promise<number> {
  const sessions = new Set(sessionIds)
  // The id as the body's JSON writes it, each backslash of its escapes as `_` (PostgreSQL's LIKE takes
  // a backslash as its escape character); `%` and `_` in the id match themselves among others.
  const pattern = `%${JSON.stringify(userId).slice(1, -1).replace(/\\/g, '_')}%`
  const matching: string[] = []
  let after = ''
  for (;;) {
    const rows = await db
      .selectFrom('webhook_delivery')
      .select(['id', 'payload'])
      .where('site_id', '=', siteId)
      .where('id', '>', after)
      .where('payload', 'like', pattern)
      .orderBy('id')
      .limit(PAGE)
      .execute()
    for (const row of rows) {
      const data = dataOf(row.payload)
      if (data && (data.userId === userId || sessions.has(String(data.sessionId)))) matching.push(row.id)
    }
    if (rows.length < PAGE) break
    after = (rows[rows.length - 1] as { id: string }).id
  }
  for (let i = 0; i < matching.length; i += PAGE) {
    await db
      .deleteFrom('webhook_delivery')
      .where('id', 'in', matching.slice(i, i + PAGE))
      .execute()
  }
  return matching.length
}

/** The `data` object of a stored body, or null when it has none. */
function dataOf(payload: string): Record<string, unknown> | null {
  try {
    const body = JSON.parse(payload) as { data?: unknown }
    return typeof body.data === 'object' && body.data !== null ? (body.data as Record<string, unknown>) : null
  } catch {
    return null
  }
}
