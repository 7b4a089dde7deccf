/**
 * The real build: `npm run build -w @pathlight/server` bundles the server into `dist/`, and
 * `bin/pathlight.js` (what `npm start` runs) serves from it with plain node: health, the tracking
 * script (built at run time from the tracker package), the dashboard and the API document all answer.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'

const serverRoot = path.resolve(import.meta.dirname, '..')
let server: SpawnedServer

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: serverRoot })
  server = await spawnServer({ entry: 'build', env: { GEOIP: 'off' } })
}, 60_000)

afterAll(async () => {
  await server?.stop()
})

describe('the compiled server', () => {
  it('is one ES module bundle with its source map, importing npm packages from node_modules', () => {
    const cli = fs.readFileSync(path.join(serverRoot, 'dist/cli.js'), 'utf8')
    expect(cli).toContain('sourceMappingURL=cli.js.map')
    const chunks = fs.readdirSync(path.join(serverRoot, 'dist')).filter((name) => name.endsWith('.js'))
    const code = chunks.map((name) => fs.readFileSync(path.join(serverRoot, 'dist', name), 'utf8')).join('\n')
    expect(code).toMatch(/from "fastify"/)
    expect(code).not.toMatch(/from "@pathlight\//)
  })

  it('runs without tsx and answers health, the tracking script, the dashboard and the API document', async () => {
    const cmdline = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0')
    expect(cmdline).toContain('bin/pathlight.js')
    expect(cmdline.join(' ')).not.toContain('tsx')

    const health = await fetch(`${server.baseUrl}/api/health`)
    expect(health.status).toBe(200)
    const script = await fetch(`${server.baseUrl}/api/script.js`)
    expect(script.status).toBe(200)
    expect(await script.text()).toContain('data-site-id')
    const page = await fetch(`${server.baseUrl}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as {
      info: { version: string }
    }
    const { version } = JSON.parse(fs.readFileSync(path.join(serverRoot, 'package.json'), 'utf8')) as {
      version: string
    }
    expect(document.info.version).toBe(version)
  })
})
