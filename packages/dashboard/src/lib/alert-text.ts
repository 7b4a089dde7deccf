/** An alert rule's condition in words, for listings. */
import type { AlertCrawlerCategory, AlertMetric, AlertRuleInput } from '@pathlight/protocol'

export const metricLabels: Record<AlertMetric, string> = {
  pageviews: 'Pageviews',
  sessions: 'Sessions',
  visitors: 'Visitors',
  custom_events: 'Custom events',
  errors: 'JavaScript errors',
  goal_conversions: 'Goal conversions',
  crawler_new_agents: 'New crawlers',
  crawler_requests: 'Crawler requests',
}

/** How a crawler rule's category filter reads (`ai`: the three AI categories). */
export const crawlerCategoryLabels: Record<AlertCrawlerCategory, string> = {
  ai: 'AI crawlers and agents',
  ai_training: 'AI training crawlers',
  ai_search: 'AI search indexers',
  ai_assistant: 'AI assistants (for a user)',
  search_engine: 'Search engines',
  seo: 'SEO tools',
  monitor: 'Monitors',
  other: 'Other bots',
}

/**
 * 'Pageviews above 100 in 60 minutes', 'Sessions below -20% vs. the previous 1 hour', 'At least 1 new
 * crawler (AI crawlers and agents)', 'Crawler requests of GPTBot change at least 100% vs. the previous 1 hour'.
 */
export function describeCondition(rule: Omit<AlertRuleInput, 'emailRecipients'>): string {
  const filter =
    rule.crawlerAgent ?? (rule.crawlerCategory ? crawlerCategoryLabels[rule.crawlerCategory] : null)
  if (rule.metric === 'crawler_new_agents') {
    const count = `${rule.comparison === 'above' ? 'At least' : 'At most'} ${rule.threshold} new crawler${rule.threshold === 1 ? '' : 's'}`
    return filter ? `${count} (${filter})` : count
  }
  const comparison =
    rule.metric === 'crawler_requests'
      ? rule.comparison === 'above'
        ? 'at least'
        : 'at most'
      : rule.comparison
  const metric =
    rule.metric === 'custom_events' && rule.eventName
      ? `Custom events “${rule.eventName}”`
      : filter && rule.metric === 'crawler_requests'
        ? `Crawler requests of ${filter}`
        : metricLabels[rule.metric]
  const window = windowText(rule.windowMinutes)
  return rule.relative
    ? `${metric} change ${comparison} ${rule.threshold}% vs. the previous ${window}`
    : `${metric} ${comparison} ${rule.threshold} in ${window}`
}

function windowText(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`
  return `${minutes} minutes`
}
