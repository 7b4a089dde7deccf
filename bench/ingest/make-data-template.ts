/**
 * A data directory for `BENCH_DATA_TEMPLATE` (`start-pathlight.ts`): the events store created and
 * migrated as the server would, optionally without the rollups' materialized views, so that one tree
 * measures ingest with and without them (issue 16: the views' insert cost). Run from the repository root:
 *
 *   npx tsx bench/ingest/make-data-template.ts /tmp/with-views
 *   npx tsx bench/ingest/make-data-template.ts /tmp/without-views --without-rollup-views
 *   npx tsx bench/ingest/make-data-template.ts /tmp/without-property-map --without-property-map
 *
 * Without the views the rollup tables stay empty, so reports read wrong figures from them: a template
 * for measuring inserts only. Prints the views dropped. `--without-property-map` drops the events'
 * `property_map` column instead (migration 009 stays recorded, so the server does not add it back):
 * ingest as it was before the column, for inserts only too (property reports then fail).
 * @throws when the directory already holds an events store another process has open
 */
import fs from 'node:fs'
import path from 'node:path'
import { openChdbStore } from '../../packages/server/src/storage/events/chdb-store.js'

const [dir, flag] = process.argv.slice(2)
const FLAGS = ['--without-rollup-views', '--without-property-map']
if (!dir || (flag !== undefined && !FLAGS.includes(flag))) {
  console.error(`usage: make-data-template.ts <dir> [${FLAGS.join(' | ')}]`)
  process.exit(2)
}
fs.mkdirSync(dir, { recursive: true })
const events = await openChdbStore(path.join(dir, 'events'))
try {
  if (flag === '--without-property-map') {
    await events.command('ALTER TABLE events DROP COLUMN property_map')
    console.log('dropped events.property_map')
  }
  if (flag === '--without-rollup-views') {
    const views = await events.query<{ name: string }>(
      "SELECT name FROM system.tables WHERE engine = 'MaterializedView' AND database = currentDatabase()",
    )
    for (const { name } of views) await events.command(`DROP VIEW ${name}`)
    console.log(`dropped ${views.map((view) => view.name).join(', ')}`)
  }
} finally {
  await events.close()
}
