/**
 * The migrated chDB events directory that the test run's setup makes once (`test-run-setup.ts`), and
 * its copy into a new data directory, so that a test's instance opens an events store with every
 * migration already recorded instead of applying them all to an empty one.
 */
import fs from 'node:fs'
import path from 'node:path'
import { EVENTS_TEMPLATE_ENV } from './test-run-env.js'

/**
 * Copy the template, when the run has one, to `${dataDir}/events`, where the server opens its chDB
 * store. Does nothing without a template (outside vitest), or when `dataDir` already has an events
 * directory (a restart on existing data).
 */
export function copyEventsTemplate(dataDir: string): void {
  const template = process.env[EVENTS_TEMPLATE_ENV]
  const target = path.join(dataDir, 'events')
  if (!template || fs.existsSync(target)) return
  fs.cpSync(template, target, { recursive: true })
}
