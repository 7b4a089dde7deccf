/**
 * The Experiment resource: an A/B test on a site. Visitors are shown one of its variants; the site
 * reports the exposure with an event whose `properties` carry `{"experiment": <key>, "variant":
 * <variant name>}`, and the experiment's goal measures success (see `query/experiment-results.ts`).
 */
import {
  experimentStatuses,
  type Experiment as WireExperiment,
  type ExperimentVariant as WireExperimentVariant,
  type ExperimentWithResults as WireExperimentWithResults,
  type VariantResult as WireVariantResult,
} from '@pathlight/protocol'
import { toIso } from '../shared/time.js'
import type { ExperimentTable } from '../storage/metadata/schema.js'

/** Lifecycle states. Informative only: results are computed in every state. */
export { experimentStatuses }
/** 'draft', 'running' or 'completed'. */
export type ExperimentStatus = (typeof experimentStatuses)[number]

/** One arm of an experiment (the protocol's). Exactly one variant of an experiment is the control. */
export type ExperimentVariant = WireExperimentVariant

/**
 * A stored experiment, as the API returns it (the protocol's `Experiment`). The key is a slug
 * `^[a-z0-9][a-z0-9_-]{0,63}$`, unique per site; 2-10 variants in the order given; `goalId` is null once
 * that goal has been deleted; times are ISO 8601 UTC with milliseconds.
 */
export type Experiment = WireExperiment

/**
 * One variant's figures over a range (the protocol's; see `query/experiment-results.ts` for the
 * definitions): `uplift` is (rate - controlRate) / controlRate, a fraction (0.25 = +25 %); `zScore` the
 * two-proportion statistic against the control (pooled standard error); `ci95` the Wald interval of
 * rate - controlRate (unpooled standard error). Figures are null when undefined.
 */
export type VariantResult = WireVariantResult

/**
 * An experiment's figures over a range: one entry per variant in the experiment's order (variants
 * nobody saw included, with 0 sessions), crossovers (each counted in its first variant) and the total.
 */
export type ExperimentResults = WireExperimentWithResults['results']

/** An experiment with its figures (the v1 API's list; the protocol's). */
export type ExperimentWithResults = WireExperimentWithResults

/** A row as selected (ids may be strings on PostgreSQL for bigint, numbers otherwise). */
export type ExperimentRow = Omit<ExperimentTable, 'experiment_id' | 'site_id' | 'goal_id'> & {
  experiment_id: number | string
  site_id: number | string
  goal_id: number | string | null
}

/** Map a metadata row to the Experiment resource. */
export function toExperiment(row: ExperimentRow): Experiment {
  const variants = JSON.parse(row.variants) as ExperimentVariant[]
  return {
    experimentId: Number(row.experiment_id),
    siteId: Number(row.site_id),
    key: row.experiment_key,
    name: row.name,
    description: row.description,
    variants: variants.map((v) => ({ name: v.name, control: v.control })),
    goalId: row.goal_id === null ? null : Number(row.goal_id),
    status: row.status as ExperimentStatus,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  }
}
