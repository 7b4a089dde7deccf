import { describe, expect, it } from 'vitest'
import { filesToSkip } from './test-services.js'

const files = [
  {
    path: 'both-stores.test.ts',
    source: 'const t = await openTestInstance({\n  postgres,\n  redis: postgres,\n})',
  },
  { path: 'browser.test.ts', source: "import { launchChromium } from '../src/testing/browser.js'" },
  {
    path: 'redis-only.test.ts',
    source: "const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'",
  },
  { path: 'embedded.test.ts', source: 'const t = await openTestInstance({ workers: false })' },
  {
    path: 'clickhouse.test.ts',
    source: "import { startClickHouseServer } from '../../testing/clickhouse-server.js'",
  },
]
const all = { postgres: true, redis: true, chromium: true, cc: true }

describe('filesToSkip', () => {
  it('skips nothing when every service answers', () => {
    expect(filesToSkip(files, all, false)).toEqual({ skip: [], lines: [] })
  })

  it('skips the files that need a missing service, with one line per service', () => {
    const { skip, lines } = filesToSkip(files, { ...all, postgres: false, chromium: false }, false)
    expect(skip.sort()).toEqual(['both-stores.test.ts', 'browser.test.ts'])
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^PostgreSQL \(.+\) is not available: 1 test file\(s\) .* pg_ctlcluster/)
    expect(lines[1]).toMatch(/^Chromium .* apt-get install chromium$/)
    expect(filesToSkip(files, { ...all, redis: false }, false).skip.sort()).toEqual([
      'both-stores.test.ts',
      'redis-only.test.ts',
    ])
    const noCompiler = filesToSkip(files, { ...all, cc: false }, false)
    expect(noCompiler.skip).toEqual(['clickhouse.test.ts'])
    expect(noCompiler.lines[0]).toMatch(
      /^A C compiler \(.+\) is not available: 1 test file.*apt-get install gcc/,
    )
  })

  it('fails instead when every service is required', () => {
    expect(() => filesToSkip(files, { ...all, redis: false }, true)).toThrow(
      /PATHLIGHT_TEST_SERVICES=required.*Redis/s,
    )
  })
})
