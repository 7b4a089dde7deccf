/**
 * The cost of one canonical reading of custom properties, against its baseline in the same run:
 *
 * 1. Ingest: `canonicalPropertiesText` (parse, last duplicate wins, numbers rewritten) against
 *    `JSON.stringify(JSON.parse(text))` over the same texts: ns per properties text, and the ratio.
 * 2. Store: events migration 013's `property_map` expression against 009's, each materialized over
 *    the same events (`ALTER TABLE ... MATERIALIZE COLUMN`, waited for): seconds per million events,
 *    and the ratio; an upgrade pays this once.
 *
 *   npx tsx bench/property-map/run.ts            # BENCH_ROWS=500000 by default
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { canonicalPropertiesText } from '../../packages/protocol/src/canonical-properties.js'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'
import { eventRow } from '../../packages/server/src/storage/events/event-row.fixture.js'
import { PROPERTY_MAP_EXPRESSION as EXPRESSION_009 } from '../../packages/server/src/storage/events/migrations/009-event-properties.js'
import {
  PROPERTY_MAP_EXPRESSION as EXPRESSION_013,
  PROPERTY_MAP_TYPE,
} from '../../packages/server/src/storage/events/migrations/013-property-map-canonical.js'
import { positiveInteger } from '../positive-integer.js'

const ROWS = positiveInteger('BENCH_ROWS', 500_000)

/** Typical custom event properties: a string, numbers, a flag, a list and a nested object. */
const texts = Array.from({ length: 1000 }, (_, i) =>
  JSON.stringify({
    plan: i % 2 ? 'pro' : 'free',
    seats: i,
    price: i * 1.25,
    tags: ['a', 'b', String(i)],
    ok: true,
    nested: { tier: 'gold', n: i },
  }),
)

function nsPerText(f: (text: string) => unknown): number {
  const rounds = 200
  for (const text of texts) f(text)
  const start = process.hrtime.bigint()
  for (let r = 0; r < rounds; r++) for (const text of texts) f(text)
  return Number(process.hrtime.bigint() - start) / (rounds * texts.length)
}

const baselineNs = nsPerText((text) => JSON.stringify(JSON.parse(text)))
const canonicalNs = nsPerText((text) => canonicalPropertiesText(text))
console.log(
  `ingest, per properties text (${Math.round(texts.reduce((n, t) => n + t.length, 0) / texts.length)} chars): ` +
    `JSON.parse+stringify ${baselineNs.toFixed(0)} ns, canonicalPropertiesText ${canonicalNs.toFixed(0)} ns, ` +
    `ratio ${(canonicalNs / baselineNs).toFixed(2)}`,
)

/** The texts as ingest stores them. */
const stored = texts.map((text) => {
  const canonical = canonicalPropertiesText(text)
  if (!('text' in canonical)) throw new Error(canonical.error)
  return canonical.text
})

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-property-map-'))
const events = await openChdbStore(dir)
try {
  const batch = 50_000
  for (let done = 0; done < ROWS; done += batch) {
    const rows = Array.from({ length: Math.min(batch, ROWS - done) }, (_, i) =>
      eventRow({
        site_id: 1,
        type: 'custom_event',
        event_name: 'buy',
        user_id: `u${(done + i) % 5000}`,
        timestamp: new Date(Date.UTC(2026, 0, 1) + (done + i) * 1000).toISOString(),
        properties: stored[(done + i) % stored.length] as string,
      }),
    )
    await events.insert(rows)
  }
  const materialize = async (expression: string) => {
    await events.command(
      `ALTER TABLE events MODIFY COLUMN property_map ${PROPERTY_MAP_TYPE} MATERIALIZED ${expression}`,
    )
    const start = performance.now()
    await events.command('ALTER TABLE events MATERIALIZE COLUMN property_map SETTINGS mutations_sync = 2')
    return (performance.now() - start) / 1000
  }
  // Each twice, alternating, the second of each counted (the first warms caches and merges parts).
  await materialize(EXPRESSION_009)
  await materialize(EXPRESSION_013)
  const s009 = await materialize(EXPRESSION_009)
  const s013 = await materialize(EXPRESSION_013)
  const perMillion = (s: number) => ((s * 1_000_000) / ROWS).toFixed(2)
  console.log(
    `store, MATERIALIZE COLUMN property_map over ${ROWS} events: 009 ${s009.toFixed(2)} s ` +
      `(${perMillion(s009)} s per million), 013 ${s013.toFixed(2)} s (${perMillion(s013)} s per million), ` +
      `ratio ${(s013 / s009).toFixed(2)}`,
  )
} finally {
  await events.close()
  fs.rmSync(dir, { recursive: true, force: true })
}
