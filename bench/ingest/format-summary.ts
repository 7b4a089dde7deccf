/** Figures of one server under load, as printed by the ingest benchmark. */
export interface ServerFigures {
  /** Mean requests/s during the measured run. */
  reqPerSec: number
  /** Latency percentiles, ms. */
  p50Ms: number
  p99Ms: number
  /** Peak resident set size, MB; `null` when unknown. */
  rssMb: number | null
  /** Responses by status during the measured run. */
  statuses: Record<string, number>
  /** Connection errors + timeouts during the measured run. */
  errors: number
}

/** Pathlight figures plus the durability check (warm-up and measured runs together). */
export interface PathlightFigures extends ServerFigures {
  /** 200 responses not marked `tracked:false`. */
  acknowledged: number
  /** Rows read back with `countEvents()` after the load stopped. */
  committed: number
  /** `max(0, acknowledged - committed)`: acknowledged events the store lost (target 0). */
  missing: number
  /** `max(0, committed - acknowledged)`: stored events whose response autocannon did not read. */
  extra: number
}

/** Everything one benchmark run produced; also the shape of the final JSON line. */
export interface IngestSummary {
  benchmark: 'ingest'
  seconds: number
  warmupSeconds: number
  connections: number
  distinctBodies: number
  cpus: number
  node: string
  baseline: ServerFigures
  pathlight: PathlightFigures | null
  /** Why the Pathlight half did not run, when it did not. */
  pathlightSkipped?: string
  /** Server's `/api/admin/ingest-stats` after the run, when it answered. */
  ingestStats?: unknown
  /** Pathlight req/s ÷ baseline req/s, target ≥ 0.5; `null` when Pathlight did not run. */
  ratio: number | null
  pass: { ratio: boolean | null; noMissing: boolean | null }
}

const RATIO_TARGET = 0.5

/**
 * Computes the ratio and pass/fail flags of a run.
 *
 * @returns the summary to print; `pass` fields are `null` when Pathlight did not run.
 */
export function summarize(base: Omit<IngestSummary, 'ratio' | 'pass'>): IngestSummary {
  const { pathlight, baseline } = base
  const ratio = pathlight && baseline.reqPerSec > 0 ? pathlight.reqPerSec / baseline.reqPerSec : null
  return {
    ...base,
    ratio,
    pass: {
      ratio: ratio === null ? null : ratio >= RATIO_TARGET,
      noMissing: pathlight ? pathlight.missing === 0 : null,
    },
  }
}

/**
 * Renders the human-readable result table (fixed-width columns, `n/a` for what was not measured).
 *
 * @returns multi-line text ending with a newline.
 */
export function formatSummary(summary: IngestSummary): string {
  const { baseline: b, pathlight: p } = summary
  const num = (value: number | null | undefined, digits = 0): string =>
    value === null || value === undefined ? 'n/a' : value.toFixed(digits)
  const verdict = (pass: boolean | null): string => (pass === null ? '' : pass ? '  PASS' : '  FAIL')
  const rows: [string, string, string][] = [
    ['', 'baseline', 'pathlight'],
    ['req/s (mean)', num(b.reqPerSec), num(p?.reqPerSec)],
    ['latency p50 (ms)', num(b.p50Ms, 2), num(p?.p50Ms, 2)],
    ['latency p99 (ms)', num(b.p99Ms, 2), num(p?.p99Ms, 2)],
    ['peak RSS (MB)', num(b.rssMb, 1), num(p?.rssMb, 1)],
    ['errors+timeouts', num(b.errors), num(p?.errors)],
    ['statuses', formatStatuses(b.statuses), p ? formatStatuses(p.statuses) : 'n/a'],
  ]
  const widths = [0, 1, 2].map((col) => Math.max(...rows.map((row) => row[col]?.length ?? 0)))
  const lines = rows.map((row) =>
    row
      .map((cell, col) => (col === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[col] ?? 0)))
      .join('   '),
  )
  lines.push('')
  const ratio = num(summary.ratio, 2)
  lines.push(
    `ratio pathlight/baseline req/s: ${ratio} (target >= ${RATIO_TARGET})${verdict(summary.pass.ratio)}`,
  )
  lines.push(
    p
      ? `acknowledged vs committed: ${p.acknowledged} / ${p.committed} ` +
          `(missing ${p.missing}, extra ${p.extra}; target: zero missing)${verdict(summary.pass.noMissing)}`
      : 'acknowledged vs committed: n/a',
  )
  if (summary.pathlightSkipped) lines.push(`pathlight skipped: ${summary.pathlightSkipped}`)
  lines.push(
    `(${summary.seconds} s measured after ${summary.warmupSeconds} s warm-up, ` +
      `${summary.connections} connections, ${summary.distinctBodies} distinct bodies, ` +
      `${summary.cpus} CPUs, Node ${summary.node})`,
  )
  return `${lines.join('\n')}\n`
}

function formatStatuses(statuses: Record<string, number>): string {
  const entries = Object.entries(statuses)
  return entries.length === 0 ? '-' : entries.map(([status, count]) => `${status}:${count}`).join(' ')
}
