/**
 * The retention report as the dashboard shows it: which cohort periods a range offers (the server
 * answers at most 256 periods), the default one, and each cell's share of its cohort. A share is a
 * fraction 0..1 of the cohort's visitors, null for an empty cohort.
 */
import type { RetentionCohort, RetentionPeriod } from '@pathlight/protocol'
import { retentionPeriods } from '@pathlight/protocol/enums'

/** Most periods (cohorts) the server answers (`MAX_RETENTION_PERIODS` of `query/retention.ts`). */
export const MAX_RETENTION_PERIODS = 256

/** The period's name, singular ('Week 2') and as a choice ('Weeks'). */
export const retentionPeriodLabels: Record<RetentionPeriod, { one: string; many: string }> = {
  day: { one: 'Day', many: 'Days' },
  week: { one: 'Week', many: 'Weeks' },
  month: { one: 'Month', many: 'Months' },
}

/**
 * The periods a range of `days` days may be cut into: days up to 256 of them, weeks while the range
 * meets at most 256 weeks however it starts (a range from a Sunday meets one more).
 */
export function retentionPeriodsFor(days: number): RetentionPeriod[] {
  const weeks = Math.floor((days + 5) / 7) + 1
  return retentionPeriods.filter(
    (p) => (p !== 'day' || days <= MAX_RETENTION_PERIODS) && (p !== 'week' || weeks <= MAX_RETENTION_PERIODS),
  )
}

/** The period shown when the URL names none: days up to two weeks, months beyond half a year. */
export function defaultRetentionPeriod(days: number): RetentionPeriod {
  if (days <= 14) return 'day'
  if (days > 183) return 'month'
  return 'week'
}

/** `count` as a share of `visitors`; null when the cohort is empty. */
export const shareOf = (count: number, visitors: number): number | null =>
  visitors > 0 ? count / visitors : null

/**
 * The visitor-weighted mean share k periods after the cohort's, over the cohorts that reach period k
 * and have visitors: sum of retained[k] / sum of their visitors. One entry per column; null where no
 * cohort counts.
 */
export function averageShares(cohorts: readonly RetentionCohort[]): (number | null)[] {
  const columns = cohorts[0]?.retained.length ?? 0
  return Array.from({ length: columns }, (_, k) => {
    let retained = 0
    let visitors = 0
    for (const cohort of cohorts) {
      const count = cohort.retained[k]
      if (count === undefined || cohort.visitors === 0) continue
      retained += count
      visitors += cohort.visitors
    }
    return shareOf(retained, visitors)
  })
}

/**
 * `cohorts` from the first one with visitors on: the periods of the range before the site's first
 * visitor (before it existed, or before its snippet was installed) are left out rather than shown as
 * rows of zeros. An empty cohort after the first one stays: a quiet week is part of the site's life.
 */
export function fromFirstVisitors(cohorts: readonly RetentionCohort[]): RetentionCohort[] {
  const first = cohorts.findIndex((cohort) => cohort.visitors > 0)
  return first < 0 ? [] : cohorts.slice(first)
}
