/**
 * The order a vitest run starts its files in (`vitest.config.ts`, `sequence.sequencer`): the files
 * known to take longest first, so that none of them starts near the end and runs alone while the other
 * workers stand idle; then vitest's own order (files with a duration from an earlier run on this
 * machine by that duration, others largest first). A fresh clone, as in CI, has no earlier run.
 */
import path from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The longest files of the suite (paths from the repository's root), longest first, as measured on
 * the 2-core machine (`bench/README.md`, "tests: how long the suite takes"). A file not in the run is
 * passed over; a missing one costs nothing but its place.
 */
export const LONGEST_TEST_FILES: readonly string[] = [
  'packages/server/test/two-api-nodes.test.ts',
  'packages/server/test/fuzz-surface.test.ts',
  'packages/server/test/cluster-faults.test.ts',
  'packages/server/src/query/rollups/rollups.test.ts',
  'packages/server/src/http/security.test.ts',
  'packages/server/src/http/authorization-matrix.test.ts',
  'packages/server/test/dashboard-journey.test.ts',
  'packages/server/src/query/visitor-events.test.ts',
  'packages/server/test/webhooks-recovery.test.ts',
  'packages/server/test/demo-command.test.ts',
]

/** Vitest's sequencer with `LONGEST_TEST_FILES` moved to the front, in their listed order. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_TEST_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join('/'))
      return index === -1 ? LONGEST_TEST_FILES.length : index
    }
    return sorted
      .map((spec, index) => ({ spec, index, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ spec }) => spec)
  }
}
