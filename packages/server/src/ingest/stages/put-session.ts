import type { IngestDeps } from '../deps.js'
import type { Draft } from '../draft.js'
import { ok, type StageResult } from '../outcome.js'

/** Sessionize: more than 30 minutes without an event ends a session; `newSession` marks the first event of one. */
export async function putSession(draft: Draft, deps: IngestDeps): Promise<StageResult> {
  const session = await deps.sessions.touch(
    draft.sessionKey ?? `${draft.site.siteId}:${draft.row.user_id}`,
    draft.now,
  )
  draft.row.session_id = session.sessionId
  draft.newSession = session.isNew
  return ok
}
