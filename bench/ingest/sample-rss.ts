import { readFile } from 'node:fs/promises'

/**
 * Reads a process's current resident set size once (`VmRSS` of `/proc/<pid>/status`).
 *
 * @returns MB (1 MB = 1024 × 1024 bytes, one decimal); `null` when the file is not readable (not Linux,
 *   or the process has exited).
 */
export async function readRssMb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status)
    return match ? toMb(Number(match[1])) : null
  } catch {
    return null
  }
}

/** A running RSS sampler; see {@link sampleRss}. */
export interface RssSampler {
  /**
   * Stops sampling and returns the peak resident set size in MB (1 MB = 1024 × 1024 bytes): the larger
   * of the highest sampled `VmRSS` and the kernel's high-water mark `VmHWM`; `null` when
   * `/proc/<pid>/status` was never readable (not Linux, or the process already exited).
   */
  stop(): Promise<number | null>
}

/**
 * Samples a process's memory from `/proc/<pid>/status` every `intervalMs` (default 200 ms).
 *
 * @param pid the process to watch (the server itself, not a wrapper such as npx).
 * @returns a sampler; sampling errors (process gone) are ignored.
 */
export function sampleRss(pid: number, intervalMs = 200): RssSampler {
  let peakKb = 0
  let readable = false
  const sample = async (): Promise<void> => {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8')
      for (const field of ['VmRSS', 'VmHWM']) {
        const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)
        if (match) {
          readable = true
          peakKb = Math.max(peakKb, Number(match[1]))
        }
      }
    } catch {
      // the process may have exited; keep the last peak
    }
  }
  void sample()
  const timer = setInterval(() => void sample(), intervalMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await sample()
      return readable ? toMb(peakKb) : null
    },
  }
}

const toMb = (kb: number): number => Math.round((kb / 1024) * 10) / 10
