/**
 * `npm run demo` as a newcomer runs it: it keeps its data where npm was started, says how to open it,
 * refuses to overwrite a demo unless `--fresh`, and `npm start` on that directory signs in with the
 * printed account and shows the replayed traffic.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const demoLog = path.join(serverRoot, 'demo-data/elastic-examples-apache_logs.txt')

describe('pathlight demo', () => {
  it('keeps its data, prints how to open it, and npm start opens it with the printed sign-in', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-demo-'))
    const log = path.join(root, 'access.log')
    fs.writeFileSync(log, fs.readFileSync(demoLog, 'utf8').split('\n').slice(0, 300).join('\n'))
    const demo = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/pathlight.js', 'demo', '--log', log, ...args], {
        cwd: serverRoot,
        env: { PATH: process.env.PATH ?? '', INIT_CWD: root },
        encoding: 'utf8',
        timeout: 120_000,
      })

    const first = demo()
    expect(first.status, first.stderr).toBe(0)
    expect(first.stdout).toContain(`data: ${path.join(root, 'data-demo')}`)
    expect(first.stdout).toContain('DATA_DIR=data-demo npm start')
    const signIn = /sign in as (\S+), password "([^"]+)"/.exec(first.stdout)
    expect(signIn).not.toBeNull()
    expect(fs.existsSync(path.join(root, 'data-demo', 'events'))).toBe(true)

    const again = demo()
    expect(again.status).toBe(1)
    expect(again.stderr).toContain('already holds data')
    expect(again.stderr).toContain('npm run demo -- --fresh')
    const fresh = demo('--fresh')
    expect(fresh.status, fresh.stderr).toBe(0)

    // DATA_DIR=data-demo npm start, from the same folder.
    const server = spawn(process.execPath, ['bin/pathlight.js', 'serve'], {
      cwd: serverRoot,
      env: { PATH: process.env.PATH ?? '', INIT_CWD: root, DATA_DIR: 'data-demo', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      await expect.poll(() => output.includes('Pathlight is running'), { timeout: 60_000 }).toBe(true)
      const port = /Starting Pathlight on port (\d+)/.exec(output)?.[1]
      const base = `http://127.0.0.1:${port}`
      const signedIn = await fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ email: signIn?.[1], password: signIn?.[2] }),
      })
      expect(signedIn.status).toBe(200)
      const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
      const get = async (url: string) =>
        (await (await fetch(`${base}${url}`, { headers: { cookie } })).json()) as {
          data: Record<string, unknown>[]
        }
      const organizationId = (await get('/api/organizations')).data[0]?.id
      const siteId = (await get(`/api/organizations/${organizationId}/sites`)).data[0]?.siteId
      const stats = await fetch(`${base}/api/sites/${siteId}/stats?period=all`, { headers: { cookie } })
      expect(stats.status).toBe(200)
      const body = (await stats.json()) as { data: { current: { pageviews: number } } }
      expect(body.data.current.pageviews).toBeGreaterThan(0)
    } finally {
      server.kill('SIGTERM')
      await new Promise((resolve) => server.once('exit', resolve))
    }
  }, 180_000)
})
