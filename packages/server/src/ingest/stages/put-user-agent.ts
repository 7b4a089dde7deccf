import type { Draft } from '../draft.js'
import { parseUserAgent } from '../enrich/user-agent.js'
import { ok, type StageResult } from '../outcome.js'

/** User agent to browser, OS and device type (ua-parser-js 1, MIT); screen width breaks device ties. */
export function putUserAgent(draft: Draft): StageResult {
  const info = parseUserAgent(draft.userAgent, draft.payload.screenWidth)
  draft.row.browser = info.browser
  draft.row.browser_version = info.browser_version
  draft.row.operating_system = info.operating_system
  draft.row.operating_system_version = info.operating_system_version
  draft.row.device_type = info.device_type
  return ok
}
