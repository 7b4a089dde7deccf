/** The `pathlight` command as users run it. */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { startServerProcess } from '../src/testing/start-server-process.js'
import { SERVER_BUNDLE_ENV } from '../src/testing/test-run-env.js'

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const repositoryRoot = path.resolve(serverRoot, '../..')
const run = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['bin/pathlight.js', ...args], {
    cwd: serverRoot,
    // The current sources, bundled by the test run (bin/pathlight.js reads it).
    env: { PATH: process.env.PATH ?? '', [SERVER_BUNDLE_ENV]: process.env[SERVER_BUNDLE_ENV] ?? '', ...env },
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

  it('reset-password: usage without an address, and the reason for an unknown one', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-reset-'))
    try {
      const usage = run(['reset-password'], { DATA_DIR: dataDir })
      expect(usage.status).toBe(1)
      expect(usage.stderr).toContain('Usage: npx pathlight reset-password EMAIL')
      const unknown = run(['reset-password', 'Nobody@Example.com'], { DATA_DIR: dataDir })
      expect(unknown.status).toBe(1)
      expect(unknown.stderr).toContain('No account with the address nobody@example.com')
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('reset-password, run as npx from the project root, links to the running server, not port 3000', async () => {
    const server = await startServerProcess()
    try {
      const result = spawnSync('npx', ['pathlight', 'reset-password', 'Owner@Example.com'], {
        cwd: repositoryRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? os.homedir(),
          DATA_DIR: server.dataDir,
          [SERVER_BUNDLE_ENV]: process.env[SERVER_BUNDLE_ENV] ?? '',
        },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(result.status, result.stderr).toBe(0)
      const link = /(http:\/\/\S+)/.exec(result.stdout)?.[1] ?? ''
      expect(link.startsWith(`${server.baseUrl}/api/auth/reset-password/`)).toBe(true)
      expect(server.baseUrl).not.toContain(':3000')
      // The link works on that server: it leads to the dashboard's page with the token.
      const followed = await fetch(link, { redirect: 'manual' })
      expect(followed.status).toBe(302)
      expect(followed.headers.get('location')).toMatch(
        new RegExp(`^${server.baseUrl}/reset-password\\?token=`),
      )
    } finally {
      await server.stop()
    }
  }, 120_000)

  it('rejects an unknown command with usage', () => {
    const result = run(['frobnicate'], {})
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('Usage: pathlight serve')
  })
})

describe('pathlight serve start-up', () => {
  it('answers 503 while the stores open, then 200 once ready; keeps ./data where npm was started', async () => {
    // As `npm start` at a repository's root runs it: in the server's folder, INIT_CWD naming the root.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-start-'))
    const child = spawn(process.execPath, ['bin/pathlight.js', 'serve'], {
      cwd: serverRoot,
      env: { PATH: process.env.PATH ?? '', INIT_CWD: root, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      await expect
        .poll(() => /Starting Pathlight on port (\d+)/.exec(output)?.[1], { timeout: 30_000 })
        .toBeDefined()
      const port = /Starting Pathlight on port (\d+)/.exec(output)?.[1]
      // The geolocation data alone takes several hundred milliseconds to load: the port is up before.
      const early = await fetch(`http://127.0.0.1:${port}/api/health`)
      expect(early.status).toBe(503)
      expect(await early.json()).toEqual({ status: 'starting' })
      await expect.poll(() => output.includes('Pathlight is running'), { timeout: 60_000 }).toBe(true)
      const ready = await fetch(`http://127.0.0.1:${port}/api/health`)
      expect(ready.status).toBe(200)
      expect(fs.existsSync(path.join(root, 'data', 'events'))).toBe(true)
      expect(fs.existsSync(path.join(serverRoot, 'data'))).toBe(false)
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  }, 90_000)
})

describe('data directories and the repository', () => {
  it('are ignored by git (and so by Biome) wherever they are', () => {
    const repositoryRoot = path.resolve(serverRoot, '../..')
    const ignored = spawnSync(
      'git',
      ['check-ignore', '--no-index', 'data/events/x', 'packages/server/data/events/x', 'packages/x/data/y'],
      { cwd: repositoryRoot, encoding: 'utf8' },
    )
    expect(ignored.stdout.trim().split('\n')).toHaveLength(3)
  })
})

describe('pathlight serve logs', () => {
  /** Start the server with `env`, send `paths`, stop it; its stdout. */
  async function logsOf(env: Record<string, string>, paths: string[]): Promise<string> {
    const child = spawn(process.execPath, ['bin/pathlight.js', 'serve'], {
      cwd: serverRoot,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'pl-logs-')),
        PORT: '0',
        GEOIP: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    try {
      await expect.poll(() => output.includes('Pathlight is running'), { timeout: 60_000 }).toBe(true)
      const port = /Starting Pathlight on port (\d+)/.exec(output)?.[1]
      for (const url of paths) await (await fetch(`http://127.0.0.1:${port}${url}`)).arrayBuffer()
      await expect.poll(() => output.includes('/api/organizations'), { timeout: 10_000 }).toBe(true)
      return output
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
  }

  it('writes one readable line per API request with LOG_FORMAT=pretty, none for the dashboard files', async () => {
    const output = await logsOf({ LOG_FORMAT: 'pretty' }, ['/', '/favicon.svg', '/api/organizations'])
    const requestLines = output.split('\n').filter((line) => / \d+(\.\d+)? ms/.test(line))
    expect(requestLines).toHaveLength(1)
    expect(requestLines[0]).toMatch(/INFO.*GET \/api\/organizations 401 [\d.]+ ms$/)
    expect(output).not.toContain('{"level"')
  }, 90_000)

  it('writes JSON lines with LOG_FORMAT=json', async () => {
    const output = await logsOf({ LOG_FORMAT: 'json' }, ['/api/organizations'])
    const entries = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    const requests = entries.filter((entry) => entry.req !== undefined)
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({
      level: 30,
      msg: expect.stringMatching(/^GET \/api\/organizations 401 /),
      req: { method: 'GET', url: '/api/organizations' },
      res: { statusCode: 401 },
    })
  }, 90_000)
})
