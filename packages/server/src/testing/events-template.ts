/**
 * The migrated chDB events directory that the test run's setup makes once (`test-run-setup.ts`), and
 * its copy into a new events directory, so that a test opens an events store with every migration
 * already recorded instead of applying them all to an empty one.
 */
import fs from 'node:fs'
import { EVENTS_TEMPLATE_ENV } from './test-run-env.js'

/**
 * Copy the template, when the run has one, to `eventsDir` (a chDB data directory: a server's
 * `DATA_DIR/events`, or the directory a test passes to `openChdbStore`). Does nothing without a
 * template (outside vitest), or when `eventsDir` already holds something (existing data).
 */
export function copyEventsTemplate(eventsDir: string): void {
  const template = process.env[EVENTS_TEMPLATE_ENV]
  if (!template || (fs.existsSync(eventsDir) && fs.readdirSync(eventsDir).length > 0)) return
  fs.cpSync(template, eventsDir, { recursive: true })
}
