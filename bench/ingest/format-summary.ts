/**
 * The ingest benchmark's result: its shape (`IngestSummary`, also the final JSON line) and the
 * human-readable table printed before it.
 */
import type { CpuSplit } from './cpu-time.js'
import type { RunMode, ServerName } from './plan-runs.js'

/** One load run's figures (its measured part; `acknowledged` counts its warm-up too). */
export interface RunFigures {
  server: ServerName
  mode: RunMode
  connections: number
  /** 1 or 2 for the two baseline runs at this connection count; 1 for Pathlight. */
  round: 1 | 2
  /** Mean requests/s during the measured run (autocannon's per-second samples). */
  reqPerSec: number
  /** Latency percentiles, ms (nearest rank over every response). */
  p50Ms: number
  p99Ms: number
  /** Connection errors + timeouts during the measured run. */
  errors: number
  /** Responses by status during the measured run, e.g. `{ '200': 51234 }`. */
  statuses: Record<string, number>
  /** 200 responses not saying `tracked:false`/`success:false`, warm-up and measured run together. */
  acknowledged: number
  /**
   * Where the measured run's CPU went: server and load generator µs per response, and how busy the
   * machine's CPUs were. On a machine whose CPUs are all busy, req/s is set by the sum of the two
   * per-response costs, so these say what a ratio can reach (bench/README.md).
   */
  cpu: CpuSplit
  /** `reqPerSec` ÷ the mean of the two baseline runs at the same connections; `null` if unknown. */
  ratio: number | null
}

/** The two baseline runs at one connection count. */
export interface BaselineFigures {
  connections: number
  /** req/s of round 1 and round 2, in that order (a difference shows drift during the run). */
  reqPerSec: number[]
  /** Their mean: the denominator of the ratios at these connections. */
  meanReqPerSec: number
}

/** Memory and start-up of one server process. */
export interface ServerMemory {
  /** Wall-clock ms from spawn until ready (for Pathlight, seeding through HTTP included). */
  readyMs: number
  /** `VmRSS` after start (and seeding) and ~5 s without requests, before any load, MB. */
  idleRssMb: number | null
  /** Peak over all its loads: max of `VmRSS` sampled every 200 ms and the kernel's `VmHWM`, MB. */
  peakRssMb: number | null
}

/** Acknowledged vs stored events over all Pathlight runs (keyless + keyed, warm-ups included). */
export interface Durability {
  /** Acknowledged responses of all Pathlight loads, plus the one keyless check request. */
  acknowledged: number
  /** Rows read back with `countEvents()` after the loads stopped. */
  committed: number
  /** `max(0, acknowledged - committed)`: acknowledged events the store lost (target 0). */
  missing: number
  /** `max(0, committed - acknowledged)`: stored events whose response autocannon did not read. */
  extra: number
}

/** The thresholds of GitHub issue 17, checked at `connections`. */
export interface Targets {
  connections: number
  /** Pathlight req/s ÷ baseline req/s, at least. */
  minRatio: number
  /** Pathlight p99 latency, below, ms. */
  maxP99Ms: number
}

/** Pass/fail per target; `null` when not measured (Pathlight skipped, or no run at the target's connections). */
export interface TargetVerdicts {
  keylessRatio: boolean | null
  keyedRatio: boolean | null
  keylessP99: boolean | null
  keyedP99: boolean | null
  noMissing: boolean | null
}

/** Everything one benchmark run produced; also the shape of the final JSON line. */
export interface IngestSummary {
  benchmark: 'ingest'
  seconds: number
  warmupSeconds: number
  connections: number[]
  distinctBodies: number
  cpus: number
  node: string
  /** Every run, in the order made. */
  runs: RunFigures[]
  baselines: BaselineFigures[]
  memory: { baseline: ServerMemory; pathlight: ServerMemory | null }
  durability: Durability | null
  /** Why Pathlight did not run, when it did not. */
  pathlightSkipped?: string
  /** Pathlight's `/api/admin/ingest-stats` after the loads, when it answered. */
  ingestStats?: unknown
  targets: Targets
  pass: TargetVerdicts
}

/**
 * Renders the human-readable report: one row per run, the baseline means, memory, durability and one
 * PASS/FAIL line per target (`n/a` for what was not measured).
 *
 * @returns multi-line text ending with a newline.
 */
export function formatSummary(summary: IngestSummary): string {
  const lines = [...formatRuns(summary.runs), '']
  for (const b of summary.baselines) {
    const drift = b.meanReqPerSec > 0 ? (spread(b.reqPerSec) / b.meanReqPerSec) * 100 : null
    lines.push(
      `baseline @${b.connections}: mean ${num(b.meanReqPerSec)} req/s ` +
        `(runs ${b.reqPerSec.map((r) => num(r)).join(', ')}; spread ${num(drift, 1)}%)`,
    )
  }
  lines.push(formatMemory('baseline', summary.memory.baseline))
  lines.push(
    summary.memory.pathlight
      ? formatMemory('pathlight', summary.memory.pathlight, ' incl. seeding')
      : 'pathlight: n/a',
  )
  const d = summary.durability
  lines.push(
    d
      ? `acknowledged vs committed (all pathlight runs, warm-ups included): ${d.acknowledged} / ${d.committed} ` +
          `(missing ${d.missing}, extra ${d.extra})`
      : 'acknowledged vs committed: n/a',
  )
  if (summary.pathlightSkipped) lines.push(`pathlight skipped: ${summary.pathlightSkipped}`)
  lines.push('', ...formatTargets(summary))
  lines.push(
    '',
    `(${summary.seconds} s measured after ${summary.warmupSeconds} s warm-up per run, ` +
      `connections ${summary.connections.join(', ')}, ${summary.distinctBodies} distinct bodies, ` +
      `${summary.cpus} CPUs, Node ${summary.node})`,
  )
  return `${lines.join('\n')}\n`
}

function formatRuns(runs: readonly RunFigures[]): string[] {
  const header = [
    'server',
    'mode',
    'conns',
    'req/s',
    'ratio',
    'p50 ms',
    'p99 ms',
    'srv µs/req',
    'load µs/req',
    'busy %',
    'errors',
    'statuses',
  ]
  const rows = runs.map((r) => [
    r.server === 'baseline' ? `baseline#${r.round}` : r.server,
    r.mode,
    String(r.connections),
    num(r.reqPerSec),
    num(r.ratio, 2),
    num(r.p50Ms, 2),
    num(r.p99Ms, 2),
    num(r.cpu.serverUsPerRequest, 1),
    num(r.cpu.clientUsPerRequest, 1),
    num(r.cpu.machineBusy === null ? null : r.cpu.machineBusy * 100),
    String(r.errors),
    formatStatuses(r.statuses),
  ])
  const table = [header, ...rows]
  const widths = header.map((_, col) => Math.max(...table.map((row) => row[col]?.length ?? 0)))
  // Text columns (server, mode, statuses) align left, numbers right.
  const left = new Set([0, 1, 11])
  return table.map((row) =>
    row
      .map((cell, col) => (left.has(col) ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join('  ')
      .trimEnd(),
  )
}

function formatMemory(name: string, memory: ServerMemory, readyNote = ''): string {
  return (
    `${name}: RSS idle ${num(memory.idleRssMb, 1)} MB, peak ${num(memory.peakRssMb, 1)} MB; ` +
    `ready in ${memory.readyMs} ms${readyNote}`
  )
}

function formatTargets(summary: IngestSummary): string[] {
  const { targets: t, pass } = summary
  const at = (mode: RunMode): RunFigures | undefined =>
    summary.runs.find((r) => r.server === 'pathlight' && r.mode === mode && r.connections === t.connections)
  const keyless = at('keyless')
  const keyed = at('keyed')
  return [
    `targets (issue 17) @${t.connections} connections:`,
    target(`keyless ratio >= ${t.minRatio}`, num(keyless?.ratio, 2), pass.keylessRatio),
    target(`keyed ratio >= ${t.minRatio}`, num(keyed?.ratio, 2), pass.keyedRatio),
    target(`keyless p99 < ${t.maxP99Ms} ms`, num(keyless?.p99Ms, 2), pass.keylessP99),
    target(`keyed p99 < ${t.maxP99Ms} ms`, num(keyed?.p99Ms, 2), pass.keyedP99),
    target('missing = 0', num(summary.durability?.missing), pass.noMissing),
  ]
}

function target(label: string, value: string, pass: boolean | null): string {
  const verdict = pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL'
  return `  ${`${label}:`.padEnd(26)} ${value.padStart(8)}  ${verdict}`
}

function num(value: number | null | undefined, digits = 0): string {
  return value === null || value === undefined ? 'n/a' : value.toFixed(digits)
}

function spread(values: readonly number[]): number {
  return values.length === 0 ? 0 : Math.max(...values) - Math.min(...values)
}

function formatStatuses(statuses: Record<string, number>): string {
  const entries = Object.entries(statuses)
  return entries.length === 0 ? '-' : entries.map(([status, count]) => `${status}:${count}`).join(' ')
}
