/** The ingest benchmark's settings, read once from the environment. */
export interface BenchSettings {
  /** Measured seconds of each run (`BENCH_SECONDS`, default 10). */
  seconds: number
  /** Unmeasured seconds before each measured run (`BENCH_WARMUP_SECONDS`, default 2; 0 skips). */
  warmupSeconds: number
  /** Connection counts to run, in order (`BENCH_CONNECTIONS`, comma-separated, default `50,200`). */
  connections: number[]
}

/**
 * Reads `BENCH_SECONDS`, `BENCH_WARMUP_SECONDS` and `BENCH_CONNECTIONS`; unset or empty means the
 * default.
 *
 * @throws naming the variable when a value is not a number ≥ 0 (seconds) or not a list of positive
 *   integers (connections).
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  return {
    seconds: nonNegative(env, 'BENCH_SECONDS', 10),
    warmupSeconds: nonNegative(env, 'BENCH_WARMUP_SECONDS', 2),
    connections: connectionList(env, 'BENCH_CONNECTIONS', [50, 200]),
  }
}

function nonNegative(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, got ${raw}`)
  return value
}

function connectionList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const values = raw.split(',').map((part) => Number(part.trim()))
  if (values.some((value) => !Number.isInteger(value) || value <= 0)) {
    throw new Error(`${name} must be a comma-separated list of positive integers, got ${raw}`)
  }
  return values
}
