/**
 * Where the server package lives (`packages/server`, the directory of its package.json), found by
 * walking up from this module: it runs from `src/shared/` under tsx and vitest, and bundled into
 * `dist/` under `npm start`, so paths to the package's own files (package.json, demo data, the
 * dashboard build beside it) are taken from here, never from a module's own location.
 */
import fs from 'node:fs'
import path from 'node:path'

const PACKAGE_NAME = '@pathlight/server'

/**
 * The nearest directory at or above `start` whose package.json is named `@pathlight/server`.
 * @throws when there is none (the module was copied out of its package)
 */
export function findServerRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json')
    if (
      fs.existsSync(file) &&
      (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME
    ) {
      return dir
    }
    if (path.dirname(dir) === dir) throw new Error(`no ${PACKAGE_NAME} package.json above ${start}`)
  }
}

/** The server package's directory, absolute. */
export const SERVER_ROOT = findServerRoot(import.meta.dirname)
