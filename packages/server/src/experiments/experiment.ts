/**
 * The Experiment resource: an A/B test on a site. Visitors are shown one of its variants; the site
 * reports the exposure with an event whose `properties` carry `{"experiment": <key>, "variant":
 * <variant name>}`, and the experiment's goal measures success (see `query/experiment-results.ts`).
 */
import { experimentStatuses } from '@pathlight/protocol'
import { toIso } from '../shared/time.js'
import type { ExperimentTable } from '../storage/metadata/schema.js'

/** Lifecycle states. Informative only: results are computed in every state. */
export { experimentStatuses }
/** 'draft', 'running' or 'completed'. */
export type ExperimentStatus = (typeof experimentStatuses)[number]

/** One arm of an experiment. Exactly one variant of an experiment is the control. */
export interface ExperimentVariant {
  /** 1-64 characters, unique in the experiment; matched exactly against `properties.variant`. */
  name: string
  control: boolean
}

/** A stored experiment, as the API returns it. */
export interface Experiment {
  experimentId: number
  siteId: number
  /** Slug `^[a-z0-9][a-z0-9_-]{0,63}$`, unique per site; matched exactly against `properties.experiment`. */
  key: string
  /** 1-100 characters. */
  name: string
  /** At most 1,000 characters; null when none. */
  description: string | null
  /** 2-10 variants in the order given, exactly one with `control: true`. */
  variants: ExperimentVariant[]
  /** A goal of the same site; null once that goal has been deleted. */
  goalId: number | null
  status: ExperimentStatus
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string
  updatedAt: string
}

/** One variant's figures over a range (see `query/experiment-results.ts` for the definitions). */
export interface VariantResult {
  name: string
  control: boolean
  /** Sessions whose first exposure in the range was to this variant. */
  exposedSessions: number
  /** Exposed sessions with a goal-matching event at or after their first exposure; null without a goal. */
  conversions: number | null
  /** conversions / exposedSessions, a fraction 0..1; null without exposed sessions or without a goal. */
  conversionRate: number | null
  /** (rate - controlRate) / controlRate, a fraction (0.25 = +25 %); null for the control, or undefined. */
  uplift: number | null
  /** Two-proportion z statistic against the control (pooled standard error); null when undefined. */
  zScore: number | null
  /** Two-sided p-value of `zScore`; null when undefined. */
  pValue: number | null
  /** 95 % Wald interval of rate - controlRate (unpooled standard error); null when undefined. */
  ci95: [number, number] | null
}

/** An experiment's figures over a range. */
export interface ExperimentResults {
  /** One entry per variant, in the experiment's order (variants nobody saw included, with 0 sessions). */
  variants: VariantResult[]
  /** Exposed sessions that saw two or more variants (each counted in its first variant). */
  crossovers: number
  /** Sum of `exposedSessions` over the variants. */
  totalExposedSessions: number
}

/** An experiment with its figures (the v1 API's list). */
export type ExperimentWithResults = Experiment & { results: ExperimentResults }

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
