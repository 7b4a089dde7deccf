/**
 * `npm start` as process managers and containers run it: SIGTERM to the npm process stops the server
 * (npm hands the signal to node, which shuts down gracefully), leaving no process behind and the port
 * closed.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SERVER_BUNDLE_ENV } from '../src/testing/test-run-env.js'

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/** The processes below `pid` (children, grandchildren, ...), from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Field 4 (after the parenthesised name, which may hold spaces) is the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)])
    } catch {
      // The process ended while the list was read.
    }
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift() as number) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether something accepts connections on the loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

describe('npm start', () => {
  it('stops the server on SIGTERM to the npm process: port closed, no process left', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pl-npm-start-'))
    const npm = spawn('npm', ['start'], {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.homedir(),
        DATA_DIR: dataDir,
        PORT: '0',
        [SERVER_BUNDLE_ENV]: process.env[SERVER_BUNDLE_ENV] ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const pid = npm.pid as number
    let output = ''
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)))
    let below: number[] = []
    try {
      await expect.poll(() => output.includes('Pathlight is running'), { timeout: 90_000 }).toBe(true)
      const port = Number(/Pathlight is running at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1])
      expect(await listening(port)).toBe(true)
      below = descendants(pid)
      expect(below.length).toBeGreaterThan(0)

      npm.kill('SIGTERM')
      await exited
      await expect.poll(() => below.filter(alive), { timeout: 20_000 }).toEqual([])
      expect(await listening(port)).toBe(false)
      expect(output).toContain('SIGTERM received')
    } finally {
      for (const child of below.filter(alive)) process.kill(child, 'SIGKILL')
      if (alive(pid)) npm.kill('SIGKILL')
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
