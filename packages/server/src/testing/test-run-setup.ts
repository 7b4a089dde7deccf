/**
 * Vitest's global setup (`vitest.config.ts`): work every test file would otherwise repeat, done once
 * per run, before any file starts, and again before each rerun in watch mode (so tests always exercise
 * the sources as they are):
 *
 * - a chDB events data directory with every migration applied, which `openTestInstance` and
 *   `spawnServer` copy into each new data directory (`events-template.ts`) instead of migrating an
 *   empty one;
 * - the server bundled from the current sources by `build.mjs` into a directory of this run (never
 *   `dist/`, which `test/build.test.ts` rebuilds meanwhile), which `spawnServer` runs with plain node
 *   instead of loading every source file through tsx at each start.
 *
 * Both are handed to the test files in environment variables (`test-run-env.ts`); without them (a
 * script outside vitest) the helpers migrate and use tsx as before. Both are removed when the run ends.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { SERVER_ROOT } from '../shared/server-root.js'
import { EVENTS_TEMPLATE_ENV, SERVER_BUNDLE_ENV } from './test-run-env.js'

const run = promisify(execFile)

/**
 * Make the template and the bundle into new directories; their paths go to the environment. One that
 * fails (sources that do not compile, a migration that fails) is left out with a warning: the helpers
 * then migrate and use tsx as without a setup, so the failure shows in the tests that meet it rather
 * than stopping files that never do.
 */
async function prepare(): Promise<() => void> {
  const templateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-events-template-'))
  const template = path.join(templateRoot, 'events')
  // Beside dist/, one level under the package: the bundle finds node_modules and the package's own
  // files (`shared/server-root.ts`) from there as dist/cli.js does.
  const bundleDir = fs.mkdtempSync(path.join(SERVER_ROOT, '.test-build-'))
  const [migrated, built] = await Promise.allSettled([
    run(
      process.execPath,
      ['--import', 'tsx', path.join(SERVER_ROOT, 'src/testing/migrate-events-directory.ts'), template],
      { cwd: SERVER_ROOT },
    ),
    run(process.execPath, ['build.mjs', bundleDir], { cwd: SERVER_ROOT }),
  ])
  if (migrated.status === 'fulfilled') process.env[EVENTS_TEMPLATE_ENV] = template
  else {
    delete process.env[EVENTS_TEMPLATE_ENV]
    console.warn(`No migrated events template for this run: ${String(migrated.reason)}`)
  }
  if (built.status === 'fulfilled') process.env[SERVER_BUNDLE_ENV] = path.join(bundleDir, 'cli.js')
  else {
    delete process.env[SERVER_BUNDLE_ENV]
    console.warn(`Spawned servers run the sources through tsx: the bundle failed: ${String(built.reason)}`)
  }
  return () => {
    fs.rmSync(templateRoot, { recursive: true, force: true })
    fs.rmSync(bundleDir, { recursive: true, force: true })
  }
}

/** Vitest's `globalSetup` entry. @returns the teardown, which removes what the last preparation made */
export default async function setup(project: TestProject): Promise<() => void> {
  let remove = await prepare()
  project.onTestsRerun(async () => {
    remove()
    remove = await prepare()
  })
  return () => remove()
}
