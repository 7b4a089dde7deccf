import type { BaselineFigures, IngestSummary, RunFigures, Targets, TargetVerdicts } from './format-summary.js'

/** GitHub issue 17: ratio ≥ 0.5 and p99 < 25 ms at 50 connections, zero missing. */
export const TARGETS: Targets = { connections: 50, minRatio: 0.5, maxP99Ms: 25 }

/** What `summarize` needs: the summary without what it derives. */
export type SummaryInput = Omit<IngestSummary, 'runs' | 'baselines' | 'targets' | 'pass'> & {
  runs: Omit<RunFigures, 'ratio'>[]
}

/**
 * Derives the baseline means per connection count, each run's ratio to the mean baseline at its
 * connection count (baseline runs included, which shows their drift), and the target verdicts.
 *
 * @returns the summary to print; verdicts are `null` for what was not measured.
 */
export function summarize(input: SummaryInput): IngestSummary {
  const baselines = input.connections.map((connections): BaselineFigures => {
    const reqPerSec = input.runs
      .filter((r) => r.server === 'baseline' && r.connections === connections)
      .map((r) => r.reqPerSec)
    const meanReqPerSec = reqPerSec.length === 0 ? 0 : reqPerSec.reduce((a, b) => a + b, 0) / reqPerSec.length
    return { connections, reqPerSec, meanReqPerSec }
  })
  const runs = input.runs.map((run): RunFigures => {
    const mean = baselines.find((b) => b.connections === run.connections)?.meanReqPerSec ?? 0
    return { ...run, ratio: mean > 0 ? run.reqPerSec / mean : null }
  })
  return { ...input, runs, baselines, targets: TARGETS, pass: verdicts(runs, input.durability) }
}

function verdicts(runs: readonly RunFigures[], durability: IngestSummary['durability']): TargetVerdicts {
  const at = (mode: 'keyless' | 'keyed') =>
    runs.find((r) => r.server === 'pathlight' && r.mode === mode && r.connections === TARGETS.connections)
  const ratioOk = (run: RunFigures | undefined) =>
    run === undefined || run.ratio === null ? null : run.ratio >= TARGETS.minRatio
  const p99Ok = (run: RunFigures | undefined) => (run === undefined ? null : run.p99Ms < TARGETS.maxP99Ms)
  return {
    keylessRatio: ratioOk(at('keyless')),
    keyedRatio: ratioOk(at('keyed')),
    keylessP99: p99Ok(at('keyless')),
    keyedP99: p99Ok(at('keyed')),
    noMissing: durability ? durability.missing === 0 : null,
  }
}
