/**
 * Test support: small tmpfs filesystems, to give a test a disk that really fills up (ENOSPC from the
 * kernel, short writes included). Mounting needs root or CAP_SYS_ADMIN; `canMountTmpfs()` says whether
 * this process may, so that a test can skip with a line saying why.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Mount a tmpfs of `size` (`mount -o size=`, e.g. `1m`) on the existing directory `dir`. @returns false when refused */
export function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
    return true
  } catch {
    return false
  }
}

/** Unmount `dir` (lazily, so a file still open there does not keep it mounted). */
export function unmountTmpfs(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
}

/** Whether this process may mount a tmpfs: tries one on a temporary directory and removes it. */
export function canMountTmpfs(): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-mount-probe-'))
  try {
    if (!mountTmpfs(dir, '64k')) return false
    unmountTmpfs(dir)
    return true
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Write into `file` until its filesystem refuses with ENOSPC. @throws any other error */
export function fillDisk(file: string): void {
  const chunk = Buffer.alloc(4096, 1)
  const fd = fs.openSync(file, 'w')
  try {
    for (;;) fs.writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    fs.closeSync(fd)
  }
}
