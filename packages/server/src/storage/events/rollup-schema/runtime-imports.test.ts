/**
 * Runtime code reads the rollup tables' definitions from `rollup-schema/`, never from a numbered
 * migration: a migration is frozen once released, so runtime code importing it would either pin the
 * runtime to an old table shape or tempt an edit of the migration. Scans every source file of the
 * server but tests, fixtures and the migrations' own folders for an import of `migrations/0…`.
 * Also: the frozen copies of the query layer's SQL in the migrations equal today's.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EVENT_ORDER, EVENT_ORDER_KEY, SESSION_KEY } from '../../../query/metrics.js'
import { ROLLED_EVENT_ORDER_KEY as ORDER_KEY_008 } from '../migrations/008-event-order.js'
import { FROZEN_EVENT_ORDER, FROZEN_SESSION_KEY } from '../migrations/010-session-page-times.js'
import { ROLLED_EVENT_ORDER_KEY } from './session-hours.js'

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/** Every `.ts` file under `dir`, as paths relative to `SRC`. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') ? [path.relative(SRC, full)] : []
  })
}

/** Runtime code: not a test, a fixture, or a file inside a `migrations/` folder. */
const isRuntime = (file: string) =>
  !/\.(test|fixture|contract)\.ts$/.test(file) && !file.split(path.sep).includes('migrations')

/** The module specifiers of a file's `import`/`export ... from` statements and dynamic imports. */
const specifiers = (text: string): string[] =>
  [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string)

/** A specifier naming a numbered migration (`.../migrations/008-event-order.js`). */
const NUMBERED_MIGRATION = /(^|\/)migrations\/\d{3}-[^/]+$/

describe('runtime code and the numbered migrations', () => {
  it('the pattern catches a numbered migration and lets the migrations index through', () => {
    expect(NUMBERED_MIGRATION.test('../storage/events/migrations/004-session-dimension-hours.js')).toBe(true)
    expect(NUMBERED_MIGRATION.test('./migrations/010-session-page-times.js')).toBe(true)
    expect(NUMBERED_MIGRATION.test('./migrations/index.js')).toBe(false)
    expect(
      specifiers("import { a } from './x.js'\nexport { b } from \"../y.js\"\nawait import('./z.js')"),
    ).toEqual(['./x.js', '../y.js', './z.js'])
  })

  it('no runtime file imports a numbered migration', () => {
    const files = sourceFiles(SRC).filter(isRuntime)
    // The scan reaches the whole tree (the server has hundreds of runtime files).
    expect(files.length).toBeGreaterThan(300)
    expect(files).toContain(path.join('query', 'rollups', 'rolled-sessions.ts'))
    const offending = files.flatMap((file) =>
      specifiers(fs.readFileSync(path.join(SRC, file), 'utf8'))
        .filter((s) => NUMBERED_MIGRATION.test(s))
        .map((s) => `${file} imports ${s}`),
    )
    expect(offending).toEqual([])
  })

  it("the migrations' frozen copies of the query layer's SQL equal today's", () => {
    expect(ORDER_KEY_008).toBe(EVENT_ORDER_KEY)
    expect(ROLLED_EVENT_ORDER_KEY).toBe(EVENT_ORDER_KEY)
    expect(FROZEN_EVENT_ORDER).toBe(EVENT_ORDER)
    expect(FROZEN_SESSION_KEY).toBe(SESSION_KEY)
  })
})
