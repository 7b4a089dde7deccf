/**
 * The journal on a disk that really fills up (a small tmpfs): an append that does not fit fails as a
 * whole, leaving no part of a line behind, and once there is room the segment holds whole lines only.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { encodeEventRow } from '../storage/events/encode-event-row.js'
import { eventRow } from '../storage/events/event-row.fixture.js'
import { canMountTmpfs, fillDisk, mountTmpfs, unmountTmpfs } from '../testing/tmpfs.js'
import { openJournal, readLeftoverSegments } from './journal.js'

const canMount = canMountTmpfs()
if (!canMount)
  console.warn('journal.test.ts: full-disk test skipped: this process may not mount a tmpfs (needs root)')

let dir: string | undefined
afterEach(() => {
  if (!dir) return
  unmountTmpfs(dir)
  fs.rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

it.skipIf(!canMount)('fails a whole append on a full disk and never leaves part of a line', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-journal-'))
  expect(mountTmpfs(dir, '256k')).toBe(true)
  const journal = await openJournal(dir)
  const line = (user: string) => encodeEventRow(eventRow({ site_id: 1, user_id: user }))
  const first = line('first')
  await journal.append([first])
  const filler = path.join(dir, 'filler')
  fillDisk(filler)
  const segment = fs.readdirSync(dir).find((name) => name.endsWith('.jsonl')) as string
  const sizeBefore = fs.statSync(path.join(dir, segment)).size

  // Far more than the segment's last page can take: the kernel writes part of it, then refuses.
  const batch = Array.from({ length: 40 }, (_, i) => line(`refused-${i}`))
  await expect(journal.append(batch)).rejects.toMatchObject({ code: 'ENOSPC' })
  expect(fs.statSync(path.join(dir, segment)).size).toBe(sizeBefore)
  await expect(journal.probe(64 * 1024)).rejects.toMatchObject({ code: 'ENOSPC' })

  fs.rmSync(filler)
  await journal.probe(64 * 1024)
  const after = line('after')
  await journal.append([after])
  await journal.close()
  const [leftover] = readLeftoverSegments(dir)
  expect(leftover?.tornLines).toBe(0)
  expect(leftover?.rows.map((row) => row.line)).toEqual([first, after])
})
