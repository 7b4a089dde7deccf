import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'
import {
  CLICKHOUSE_CLUSTER_PASS_FILES,
  CLICKHOUSE_SERVER_PASS_FILES,
} from './packages/server/src/testing/clickhouse-server-pass.js'
import { LongestFirstSequencer } from './packages/server/src/testing/longest-first-sequencer.js'
import { filesToSkip, prepareTestServices } from './packages/server/src/testing/test-services.js'

const include = ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts']

/** Every test file under `packages/<name>/{src,test}`, with its source. */
function testFiles(): { path: string; source: string }[] {
  const found: { path: string; source: string }[] = []
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'dist') walk(file)
      else if (entry.name.endsWith('.test.ts'))
        found.push({ path: file, source: fs.readFileSync(file, 'utf8') })
    }
  }
  for (const name of fs.readdirSync('packages')) {
    for (const part of ['src', 'test']) {
      const dir = path.join('packages', name, part)
      if (fs.existsSync(dir)) walk(dir)
    }
  }
  return found
}

export default defineConfig(async () => {
  // PostgreSQL, Redis and Chromium: started when installed and down; the files needing one still
  // missing are left out with a line saying so (`testing/test-services.ts`). CI requires them all.
  const available = await prepareTestServices()
  const { skip, lines } = filesToSkip(
    testFiles(),
    available,
    process.env.PATHLIGHT_TEST_SERVICES === 'required',
  )
  for (const line of lines) console.warn(line)
  // The server pass (`npm run test:clickhouse-server`): the event side's files again, on a ClickHouse
  // server that its setup starts; every listed file and test must run (`testing/clickhouse-server-pass.ts`).
  // The cluster pass (`npm run test:clickhouse-cluster`) likewise, on two shards.
  const clusterPass = process.env.PATHLIGHT_TEST_EVENTS === 'clickhouse-cluster'
  const serverPass = process.env.PATHLIGHT_TEST_EVENTS === 'clickhouse-server' || clusterPass
  const passFiles = clusterPass ? CLICKHOUSE_CLUSTER_PASS_FILES : CLICKHOUSE_SERVER_PASS_FILES
  if (serverPass) {
    const missing = passFiles.filter((file) => !fs.existsSync(file) || skip.includes(file))
    if (missing.length > 0)
      throw new Error(
        `The ClickHouse ${clusterPass ? 'cluster' : 'server'} pass cannot run these files (missing, or a service is down):\n  ${missing.join('\n  ')}`,
      )
  }
  return {
    test: {
      include: serverPass ? [...passFiles] : include,
      exclude: [...configDefaults.exclude, ...skip],
      // Once per run: the migrated events directory every new instance copies, and the server bundled
      // from the sources that spawned servers run (`testing/test-run-setup.ts`); in the server pass,
      // the ClickHouse server (`testing/clickhouse-server-setup.ts`).
      globalSetup: [
        'packages/server/src/testing/test-run-setup.ts',
        ...(clusterPass
          ? ['packages/server/src/testing/clickhouse-cluster-setup.ts']
          : serverPass
            ? ['packages/server/src/testing/clickhouse-server-setup.ts']
            : []),
      ],
      ...(serverPass
        ? { reporters: ['default', './packages/server/src/testing/no-skipped-tests-reporter.ts'] }
        : {}),
      // Several files run at once on few cores: a test may take twice what it takes alone.
      // A cluster's queries take several round trips between its shards.
      testTimeout: clusterPass ? 180_000 : 60_000,
      hookTimeout: 60_000,
      // The same reason for polls: a page that answers in half a second alone may take several beside
      // two other files (vitest's default gives up after one second).
      expect: { poll: { timeout: 10_000, interval: 100 } },
      pool: 'forks',
      // The longest files start first: one started late would run alone at the end of the pass.
      sequence: { sequencer: LongestFirstSequencer },
      // Vitest's default is one worker per core less one: a single worker on a 2-core machine. Most
      // files wait (spawned servers, Chromium, polling, SQL round trips) more than they compute, so
      // files run three at a time there; VITEST_MAX_WORKERS overrides.
      maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(3, os.availableParallelism() - 1),
    },
  }
})
