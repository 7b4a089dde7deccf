/**
 * Re-derive the AI Assistants channel of a site's stored events (`pathlight rederive-channels`):
 * events stored before the channel existed keep the channel they were given (Referral, a campaign's)
 * until the operator runs this. An event whose referrer host or `utm_source` names an AI assistant
 * (`ingest/enrich/ai-assistants.ts`, the same rule live tracking applies first) gets 'AI Assistants',
 * and, without a referrer domain, the assistant's domain as its source.
 *
 * Rollups stay equal to the events: the hours of `session_hours` that held a changed event are
 * deleted and rolled up again from the events (their inserts mark the hours changed, so the fold
 * summarises those sessions anew), and the days' referrer domains get the new ones (a superset list).
 * The hourly event and dimension rollups hold no channel or referrer and are left as they are.
 */
import { AI_ASSISTANTS } from '../ingest/enrich/ai-assistants.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { referrerDomainDaysInsert } from '../storage/events/rollup-schema/referrer-domain-days.js'
import { sessionHoursInsert } from '../storage/events/rollup-schema/session-hours.js'

const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
const list = (texts: readonly string[]): string => `[${texts.map(quote).join(', ')}]`

const HOST = 'lower(domain(referrer))'
const SOURCE = "replaceRegexpAll(lower(trim(utm_source)), '^https?://|[/.]+$', '')"
const matchesHost = (expr: string, hosts: readonly string[]) =>
  `arrayExists(h -> ${expr} = h OR endsWith(${expr}, concat('.', h)), ${list(hosts)})`

/** SQL: the event's referrer or `utm_source` names an AI assistant. */
const NAMES_ASSISTANT = `(${AI_ASSISTANTS.map(
  (a) =>
    `${matchesHost(HOST, a.hosts)} OR has(${list(a.sources)}, ${SOURCE}) OR ${matchesHost(SOURCE, a.hosts)}`,
).join(' OR ')})`

/** SQL: the assistant's domain named by `utm_source` (the first assistant that matches). */
const SOURCE_DOMAIN = `multiIf(${AI_ASSISTANTS.map(
  (a) => `has(${list(a.sources)}, ${SOURCE}) OR ${matchesHost(SOURCE, a.hosts)}, ${quote(a.domain)}`,
).join(', ')}, '')`

const CHANGED = `site_id = {site:UInt32} AND channel NOT IN ('AI Assistants', 'Internal') AND utm_source != '(direct)' AND ${NAMES_ASSISTANT}`

/**
 * Give a site's events that an AI assistant sent the AI Assistants channel, and rebuild the session
 * rollups of their hours.
 * @returns how many events changed.
 * @throws the store's error (run again: it changes only what is still to change, and rebuilds those hours)
 */
export async function rederiveAiChannels(events: EventsStore, siteId: number): Promise<number> {
  const params = { site: siteId }
  const hours = await events.query<{ hour: string; n: number }>(
    `SELECT toString(toStartOfHour(timestamp)) AS hour, count() AS n FROM events WHERE ${CHANGED} GROUP BY hour ORDER BY hour`,
    params,
  )
  const changed = hours.reduce((sum, row) => sum + Number(row.n), 0)
  if (changed === 0) return 0
  await events.command(
    `ALTER TABLE events UPDATE channel = 'AI Assistants',
       referrer_domain = if(referrer_domain != '', referrer_domain, ${SOURCE_DOMAIN})
     WHERE ${CHANGED} SETTINGS mutations_sync = 2`,
    params,
  )
  for (let i = 0; i < hours.length; i += 500) {
    const batch = { site: siteId, hours: hours.slice(i, i + 500).map((row) => row.hour) }
    const inHours = "toStartOfHour(timestamp) IN {hours:Array(DateTime('UTC'))}"
    await events.command(
      "DELETE FROM session_hours WHERE site_id = {site:UInt32} AND hour IN {hours:Array(DateTime('UTC'))}",
      batch,
    )
    await events.command(sessionHoursInsert(`site_id = {site:UInt32} AND ${inHours}`), batch)
    await events.command(referrerDomainDaysInsert(`site_id = {site:UInt32} AND ${inHours}`), batch)
  }
  return changed
}
