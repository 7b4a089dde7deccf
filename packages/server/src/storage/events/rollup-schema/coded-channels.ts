/**
 * The channels the session rollups code today, by position (code = index + 1; 0 for '' and any other
 * text, which the importer rejects): the list migration 003 froze with the channels later migrations
 * appended (014: 'AI Assistants'). Appending keeps every stored code; a new channel needs a migration
 * that recreates `session_hours_view` with its own frozen copy of the longer list, and this list
 * appended to match (a test compares it with `ingest/enrich/channel.ts`).
 */
export const CODED_CHANNELS = [
  'Direct',
  'Organic Search',
  'Paid Search',
  'Organic Social',
  'Paid Social',
  'Email',
  'Affiliates',
  'Display',
  'Video',
  'Referral',
  'Internal',
  'AI Assistants',
] as const

/** A channel list as a ClickHouse array literal (`['Direct', 'Organic Search', ...]`). */
export const channelArrayOf = (list: readonly string[]): string =>
  `[${list.map((name) => `'${name}'`).join(', ')}]`
