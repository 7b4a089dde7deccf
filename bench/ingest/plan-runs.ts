/**
 * The order of the ingest benchmark's load runs. Both servers run the whole time; their loads are
 * interleaved per connection count so that machine drift (other tenants, CPU frequency, caches) hits
 * the baseline and Pathlight alike: baseline, Pathlight keyless, Pathlight keyed, baseline again.
 */

/** Which server a run loads. */
export type ServerName = 'baseline' | 'pathlight'

/**
 * How the requests are sent: `bare` to the baseline (no extra headers); `keyless` as a browser's
 * tracker would (no Authorization, the site's Origin); `keyed` with `Authorization: Bearer <key>`.
 */
export type RunMode = 'bare' | 'keyless' | 'keyed'

/** One planned load run (a warm-up, then the measured run). */
export interface RunSpec {
  server: ServerName
  mode: RunMode
  connections: number
  /** 1 or 2: which of the two baseline runs at this connection count; always 1 for Pathlight. */
  round: 1 | 2
}

/**
 * Plans the runs: for each connection count, in the given order, baseline (round 1), Pathlight keyless,
 * Pathlight keyed, baseline (round 2). Without Pathlight, the two baseline runs only.
 *
 * @returns the runs in the order they are to be made.
 */
export function planRuns(connections: readonly number[], withPathlight: boolean): RunSpec[] {
  return connections.flatMap((c): RunSpec[] => [
    { server: 'baseline', mode: 'bare', connections: c, round: 1 },
    ...(withPathlight
      ? [
          { server: 'pathlight', mode: 'keyless', connections: c, round: 1 } as const,
          { server: 'pathlight', mode: 'keyed', connections: c, round: 1 } as const,
        ]
      : []),
    { server: 'baseline', mode: 'bare', connections: c, round: 2 },
  ])
}
