import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** A running baseline server child process. */
export interface BaselineServer {
  /** e.g. `http://127.0.0.1:40123`. */
  baseUrl: string
  /** Pid of the node process that runs the server (no wrapper in between). */
  pid: number
  /** Sends SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
  stop(): Promise<void>
}

const here = path.dirname(fileURLToPath(import.meta.url))
const STARTUP_TIMEOUT_MS = 20_000

/**
 * Starts `baseline-server.ts` in a child `node --import tsx` process and waits for its `PORT=<n>` line.
 *
 * @returns the server's address and pid.
 * @throws if the child exits or prints no port within 20 s (its stderr is passed through).
 */
export function startBaselineServer(): Promise<BaselineServer> {
  const script = path.join(here, 'baseline-server.ts')
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: path.resolve(here, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }

  return new Promise<BaselineServer>((resolve, reject) => {
    let output = ''
    let settled = false
    const fail = (message: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void stop()
      reject(new Error(`baseline server: ${message}; stdout: ${output.trim()}`))
    }
    const timer = setTimeout(() => fail('no PORT= line within 20 s'), STARTUP_TIMEOUT_MS)
    child.once('error', (error) => fail(error.message))
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`))
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      output += chunk
      const match = /^PORT=(\d+)$/m.exec(output)
      if (settled || !match || child.pid === undefined) return
      settled = true
      clearTimeout(timer)
      resolve({ baseUrl: `http://127.0.0.1:${match[1]}`, pid: child.pid, stop })
    })
  })
}
