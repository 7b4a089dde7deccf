import { type CpuSplit, startCpuSplit } from './cpu-time.js'
import { type LoadResult, runLoad } from './run-load.js'

/** A measured run and what both its loads acknowledged. */
export interface WarmedLoad {
  measured: LoadResult
  /** Where the measured run's CPU went (the server's `pid`, this process, the machine). */
  cpu: CpuSplit
  /** Acknowledged responses of the warm-up and the measured run together (for the durability check). */
  acknowledged: number
}

/**
 * Loads a server for `warmupSeconds` without measuring (JIT, connection pools, caches), then for
 * `seconds` measured, with the same requests, headers and connections.
 *
 * @returns the measured run; rejects only if autocannon cannot start.
 */
export async function warmThenLoad(
  opts: Omit<Parameters<typeof runLoad>[0], 'seconds'> & { pid: number },
  timing: { warmupSeconds: number; seconds: number },
): Promise<WarmedLoad> {
  let acknowledged = 0
  if (timing.warmupSeconds > 0) {
    const warm = await runLoad({ ...opts, seconds: timing.warmupSeconds })
    acknowledged += warm.acknowledged
  }
  const stopCpu = startCpuSplit(opts.pid)
  const measured = await runLoad({ ...opts, seconds: timing.seconds })
  const cpu = stopCpu(measured.responses)
  return { measured, cpu, acknowledged: acknowledged + measured.acknowledged }
}
