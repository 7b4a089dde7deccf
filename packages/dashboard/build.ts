/**
 * Build the dashboard from Node (for tests and tools): `ensureDashboardBuilt()` runs Vite's `build()`
 * when `dist/` is missing or older than any source file, else does nothing. The build goes to a
 * temporary directory that then replaces `dist/` by rename, so a server reading `dist/` meanwhile never
 * sees it half written, and concurrent callers each end with a complete `dist/`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { build } from 'vite'

export const dashboardRoot = import.meta.dirname
export const dashboardDist = path.join(dashboardRoot, 'dist')

const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'precompress.ts', 'package.json']

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)))
  return newest
}

/** True when `dist/index.html` is missing or older than a source file of the dashboard. */
export function isDashboardBuildStale(): boolean {
  const built = fs.statSync(path.join(dashboardDist, 'index.html'), { throwIfNoEntry: false })
  if (!built) return true
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(dashboardRoot, s))))
  return sources > built.mtimeMs
}

/**
 * Build when stale.
 * @returns whether a build ran, and how long it took in milliseconds
 */
export async function ensureDashboardBuilt(): Promise<{ built: boolean; ms: number }> {
  if (!isDashboardBuildStale()) return { built: false, ms: 0 }
  const started = performance.now()
  const suffix = `${process.pid}-${Date.now()}`
  const temporary = path.join(dashboardRoot, `.dist-build-${suffix}`)
  const previous = path.join(dashboardRoot, `.dist-old-${suffix}`)
  // Vite picks React's development build when NODE_ENV is already set to anything but 'production'
  // (Vitest sets 'test'), so it is 'production' for the duration of the build.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      root: dashboardRoot,
      configFile: path.join(dashboardRoot, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir: temporary, emptyOutDir: true },
    })
    try {
      fs.renameSync(dashboardDist, previous)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    try {
      fs.renameSync(temporary, dashboardDist)
    } catch (error) {
      // Another process put its (identical) build in place between our two renames: keep theirs.
      if (
        (error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' &&
        (error as NodeJS.ErrnoException).code !== 'EEXIST'
      )
        throw error
    }
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
    fs.rmSync(temporary, { recursive: true, force: true })
    fs.rmSync(previous, { recursive: true, force: true })
  }
  return { built: true, ms: Math.round(performance.now() - started) }
}
