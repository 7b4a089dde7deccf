/** Timing helpers for the query benchmark: repeated runs and nearest-rank percentiles. */

/** Nearest-rank percentile of samples (ms). @param p 0..100 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1] ?? Number.NaN
}

/**
 * Run `fn` `warmup` times unmeasured, then `iterations` times measured (sequentially).
 * @returns p50 and p95 in milliseconds, and `cpu`: the mean CPU time per run in milliseconds, user and
 *   system, of this whole process (chDB's query threads run in it), a steadier figure than wall time on
 *   a machine shared with other work, and the floor of a run's wall time on N CPUs is `cpu / N`
 */
export async function measure(
  fn: () => Promise<unknown>,
  iterations: number,
  warmup = 2,
): Promise<{ p50: number; p95: number; cpu: number }> {
  for (let i = 0; i < warmup; i++) await fn()
  const samples: number[] = []
  const cpuBefore = process.cpuUsage()
  for (let i = 0; i < iterations; i++) {
    const start = performance.now()
    await fn()
    samples.push(performance.now() - start)
  }
  const cpu = process.cpuUsage(cpuBefore)
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    cpu: (cpu.user + cpu.system) / 1000 / Math.max(1, iterations),
  }
}

/** Peak and current resident memory of this process in MB (Linux /proc; null elsewhere). */
export async function memoryMb(): Promise<{ rss: number | null; peak: number | null }> {
  try {
    const { readFileSync } = await import('node:fs')
    const status = readFileSync('/proc/self/status', 'utf8')
    const kb = (key: string) => {
      const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)
      return match ? Math.round(Number(match[1]) / 1024) : null
    }
    return { rss: kb('VmRSS'), peak: kb('VmHWM') }
  } catch {
    return { rss: null, peak: null }
  }
}
