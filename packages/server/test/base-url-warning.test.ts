/**
 * The real `pathlight serve` warns at start when it listens beyond loopback without BASE_URL (links in
 * mails and reset redirects would follow the request's Host header), and stays quiet with BASE_URL.
 */
import { afterEach, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer } from '../src/testing/start-server-process.js'

let server: SpawnedServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
})

const WARNING = /Warning: BASE_URL is not set while HOST=0\.0\.0\.0 serves beyond this machine/

it('warns at start on HOST=0.0.0.0 without BASE_URL', async () => {
  server = await spawnServer({ env: { HOST: '0.0.0.0', GEOIP: 'off' } })
  await expect.poll(() => server?.output(), { timeout: 5000 }).toMatch(WARNING)
}, 90_000)

it('does not warn on HOST=0.0.0.0 with BASE_URL set', async () => {
  server = await spawnServer({
    env: { HOST: '0.0.0.0', GEOIP: 'off', BASE_URL: 'https://analytics.example.com' },
  })
  // The banner and the warning are printed together, after the URL line the spawn waited for.
  await expect.poll(() => server?.output(), { timeout: 5000 }).toMatch(/Then create an organization/)
  expect(server.output()).not.toMatch(/BASE_URL is not set/)
}, 90_000)
