/** The `pathlight` command as users run it. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const run = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['bin/pathlight.js', ...args], {
    cwd: serverRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  })

describe('pathlight CLI', () => {
  it('refuses to start on invalid configuration, naming the variable', () => {
    const result = run(['serve'], { PORT: 'eighty', DATABASE_URL: 'mysql://nope' })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('Invalid configuration')
    expect(result.stderr).toContain('PORT:')
    expect(result.stderr).toContain('DATABASE_URL:')
  })

  it('rejects an unknown command with usage', () => {
    const result = run(['frobnicate'], {})
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('Usage: pathlight serve')
  })
})
