import type { Draft } from '../draft.js'
import { detectBot } from '../enrich/bot.js'
import { ok, reject, type StageResult } from '../outcome.js'

/**
 * Bot filter for keyless requests on sites with `blockBots`: empty user agents,
 * headless browsers and crawlers known to `isbot` are refused with 403 `Bot detected`. It runs before
 * user-agent parsing because ua-parser reads Googlebot's smartphone UA as mobile Chrome.
 */
export function dropBots(draft: Draft): StageResult {
  if (draft.authenticated || !draft.site.blockBots) return ok
  const bot = detectBot(draft.userAgent)
  return bot === null ? ok : reject({ kind: 'bot', bot })
}
