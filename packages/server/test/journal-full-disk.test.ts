/**
 * A real server process whose ingest journal sits on a full filesystem (a 1 MiB tmpfs mounted on
 * `DATA_DIR/journal`, filled by a file beside the segments): tracking answers 503, and health answers
 * 503 `degraded` naming the journal, so a load balancer stops sending traffic there. Once there is room
 * again, health is `ok` and tracking answers 200 without a restart.
 *
 * Mounting needs root (or CAP_SYS_ADMIN); where `mount -t tmpfs` is refused the test is skipped, with
 * a line saying so.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { type SpawnedServer, spawnServer, startServerProcess } from '../src/testing/start-server-process.js'
import { canMountTmpfs, fillDisk, mountTmpfs, unmountTmpfs } from '../src/testing/tmpfs.js'

const canMount = canMountTmpfs()
if (!canMount)
  console.warn('journal-full-disk.test.ts skipped: this process may not mount a tmpfs (needs root)')

let running: SpawnedServer | undefined
let mounted: string | undefined
afterAll(async () => {
  await running?.stop({ keepData: true })
  if (mounted) unmountTmpfs(mounted)
  if (running) fs.rmSync(running.dataDir, { recursive: true, force: true })
})

interface Health {
  status: string
  reasons: string[]
}
const health = async (baseUrl: string) => {
  const response = await fetch(`${baseUrl}/api/health`)
  return { status: response.status, body: (await response.json()) as Health }
}

const FULL = 'ingest journal: cannot append (ENOSPC: no space left on device, write); tracking answers 503'

it.skipIf(!canMount)(
  'health answers 503 degraded while the journal is on a full disk, and ok once there is room',
  async () => {
    const env = { GEOIP: 'off' }
    const seeded = await startServerProcess({ env })
    await seeded.stop({ keepData: true })
    const journalDir = path.join(seeded.dataDir, 'journal')
    fs.mkdirSync(journalDir, { recursive: true })
    expect(mountTmpfs(journalDir, '1m')).toBe(true)
    mounted = journalDir

    running = await spawnServer({ dataDir: seeded.dataDir, env })
    const { baseUrl } = running
    const track = (user: string) =>
      fetch(`${baseUrl}/api/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded.apiKey}` },
        body: JSON.stringify({ site_id: String(seeded.siteId), user_id: user }),
      })
    expect((await health(baseUrl)).status).toBe(200)
    expect((await track('before')).status).toBe(200)

    const filler = path.join(journalDir, 'filler')
    fillDisk(filler)
    // Health refuses at once: the journal cannot take one more tracking body.
    const full = await health(baseUrl)
    expect(full.status).toBe(503)
    expect(full.body).toMatchObject({ status: 'degraded', reasons: [FULL] })
    // A few small events may still fit the segment's last page; tracking then answers 503.
    let refused = 0
    for (let i = 0; i < 500 && refused === 0; i++)
      if ((await track(`while-full-${i}`)).status === 503) refused++
    expect(refused).toBe(1)
    const degraded = await health(baseUrl)
    expect(degraded.status).toBe(503)
    expect(degraded.body.status).toBe('degraded')
    expect(degraded.body.reasons).toContain(FULL)

    fs.rmSync(filler)
    const healed = await health(baseUrl)
    expect(healed).toMatchObject({ status: 200, body: { status: 'ok', reasons: [] } })
    expect((await track('after')).status).toBe(200)
  },
  120_000,
)
