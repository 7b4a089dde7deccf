/** An alert rule's condition in words, for listings. */
import type { AlertMetric, AlertRuleInput } from '@pathlight/protocol'

export const metricLabels: Record<AlertMetric, string> = {
  pageviews: 'Pageviews',
  sessions: 'Sessions',
  visitors: 'Visitors',
  custom_events: 'Custom events',
  errors: 'JavaScript errors',
  goal_conversions: 'Goal conversions',
}

/** 'Pageviews above 100 in 60 minutes', 'Sessions below -20% vs. the previous 1 hour'. */
export function describeCondition(rule: Omit<AlertRuleInput, 'emailRecipients'>): string {
  const metric =
    rule.metric === 'custom_events' && rule.eventName
      ? `Custom events “${rule.eventName}”`
      : metricLabels[rule.metric]
  const window = windowText(rule.windowMinutes)
  return rule.relative
    ? `${metric} change ${rule.comparison} ${rule.threshold}% vs. the previous ${window}`
    : `${metric} ${rule.comparison} ${rule.threshold} in ${window}`
}

function windowText(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`
  return `${minutes} minutes`
}
