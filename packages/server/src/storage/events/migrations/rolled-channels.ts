/**
 * The channels the session rollups code today, by position (code = index + 1; 0 for ''): the list
 * frozen by 003 (`ROLLED_CHANNELS`) with the channels later migrations appended (014: 'AI Assistants').
 * Appending keeps every stored code; a new channel needs a migration that recreates
 * `session_hours_view` with this list (a test compares it with `ingest/enrich/channel.ts`).
 */
import { ROLLED_CHANNELS } from './003-rollups.js'

export const CODED_CHANNELS = [...ROLLED_CHANNELS, 'AI Assistants'] as const

/** A channel list as a ClickHouse array literal (`['Direct', 'Organic Search', ...]`). */
export const channelArrayOf = (list: readonly string[]): string =>
  `[${list.map((name) => `'${name}'`).join(', ')}]`
