/**
 * Figures rounded as Plausible rounds them, and a comparison's change: `bounce_rate`, `visit_duration`,
 * `time_on_page`, `scroll_depth` and `engaged_time` whole; revenue as its part rounds it (the
 * currency's minor unit); `percentage` one decimal; `views_per_visit` and `conversion_rate` two;
 * counts as they are; web vitals to whole milliseconds (CLS three decimals).
 */
import type { QueryApiMetric } from '@pathlight/protocol'

const round = (value: number, decimals: number) => {
  const scale = 10 ** decimals
  return Math.round(value * scale) / scale
}

/** One figure, rounded; null stays null. */
export function roundMetric(metric: QueryApiMetric, value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null
  switch (metric) {
    case 'bounce_rate':
    case 'visit_duration':
    case 'time_on_page':
    case 'scroll_depth':
    case 'engaged_time':
      return Math.round(value)
    case 'percentage':
      return round(value, 1)
    case 'views_per_visit':
    case 'conversion_rate':
    case 'group_conversion_rate':
      return round(value, 2)
    case 'cls_p75':
      return round(value, 3)
    case 'lcp_p75':
    case 'inp_p75':
    case 'fcp_p75':
    case 'ttfb_p75':
      return Math.round(value)
    default:
      return value
  }
}

/**
 * The change from `previous` to `current`: for the rates (`bounce_rate`, `conversion_rate`,
 * `group_conversion_rate`, `percentage`) the difference in points (one decimal); for the rest the
 * relative change, a whole percentage, 100 when the previous value is 0 and the current is not (0
 * when both are); null when either is null.
 */
export function changeOf(
  metric: QueryApiMetric,
  current: number | null,
  previous: number | null,
): number | null {
  if (current === null || previous === null) return null
  if (['bounce_rate', 'conversion_rate', 'group_conversion_rate', 'percentage'].includes(metric)) {
    return round(current - previous, 1)
  }
  if (previous === 0) return current === 0 ? 0 : 100
  return Math.round(((current - previous) / previous) * 100)
}
