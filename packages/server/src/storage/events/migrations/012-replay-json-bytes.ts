/**
 * 012: `replay.json_bytes`, the bytes of each batch's JSON once inflated (`bytes` is the body as sent,
 * gzip or JSON). The per-session replay cap and the read budget count these: a gzip batch of a few KB
 * can inflate to megabytes. Batches stored before it count their `bytes` (the column's default), and a
 * read still inflates each of them under the per-batch limit.
 */
export const replayJsonBytesColumn = {
  name: '012-replay-json-bytes',
  statements: ['ALTER TABLE replay ADD COLUMN IF NOT EXISTS json_bytes UInt32 DEFAULT bytes AFTER bytes'],
} as const
