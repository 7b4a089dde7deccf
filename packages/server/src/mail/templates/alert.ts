/**
 * The mail of an alert rule that fired: which figure crossed which threshold over which window, the
 * value observed (and, for a relative rule, the window before), and a link to the site's report in
 * the dashboard over the window, and the recipient's unsubscribe link. Both parts through the one
 * layout (`layout.ts`).
 */
import type { AlertRule } from '@pathlight/protocol'
import { renderMail } from './layout.js'

const metricNames: Record<AlertRule['metric'], string> = {
  pageviews: 'Pageviews',
  sessions: 'Sessions',
  visitors: 'Visitors',
  custom_events: 'Custom events',
  errors: 'JavaScript errors',
  goal_conversions: 'Goal conversions',
  crawler_new_agents: 'New crawlers',
  crawler_requests: 'Crawler requests',
}

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 })

/** A window of minutes as `15 minutes`, `2 hours`, `1 day`. */
export function formatWindow(minutes: number): string {
  const [value, unit] =
    minutes % 1440 === 0
      ? [minutes / 1440, 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : [minutes, 'minute']
  return `${value} ${unit}${value === 1 ? '' : 's'}`
}

/** What the alert mail says. */
export interface AlertMailInput {
  rule: Pick<
    AlertRule,
    'name' | 'metric' | 'eventName' | 'windowMinutes' | 'comparison' | 'threshold' | 'relative'
  > &
    Partial<Pick<AlertRule, 'crawlerCategory' | 'crawlerAgent'>>
  siteDomain: string
  /** The value that crossed: the count, or for a relative rule the percent change. */
  observed: number
  /** A relative rule's count of the window before. */
  previous: number | null
  windowStart: Date
  windowEnd: Date
  /** A `crawler_new_agents` rule's agents never seen on the site before. */
  newAgents?: readonly string[]
  /** The dashboard's report of the site. */
  reportUrl: string
  /** The recipient's page that stops this rule's mails (no sign-in needed). */
  unsubscribeUrl: string
}

/** Render the alert mail. @returns the subject and both parts */
export function renderAlertMail(input: AlertMailInput): { subject: string; html: string; text: string } {
  const { rule } = input
  const filter = rule.eventName ?? rule.crawlerAgent ?? rule.crawlerCategory
  const figure = `${metricNames[rule.metric]}${filter ? ` (${filter})` : ''}`
  const window = formatWindow(rule.windowMinutes)
  const crawler = rule.metric === 'crawler_new_agents' || rule.metric === 'crawler_requests'
  const side = crawler ? (rule.comparison === 'above' ? 'at least' : 'at most') : rule.comparison
  if (rule.metric === 'crawler_new_agents') return renderNewAgentsMail(input, figure)
  const condition = rule.relative
    ? `changed by ${number.format(input.observed)}% against the ${window} before, ${side} the threshold of ${number.format(rule.threshold)}%`
    : `${rule.comparison === 'above' ? 'rose to' : 'fell to'} ${number.format(input.observed)} in the last ${window}, ${side} the threshold of ${number.format(rule.threshold)}`
  const subject = `Alert on ${input.siteDomain}: ${rule.name}`
  const paragraphs = [
    `${figure} on ${input.siteDomain} ${condition}.`,
    `Window: ${input.windowStart.toISOString().replace('T', ' ').slice(0, 16)} to ` +
      `${input.windowEnd.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    ...(rule.relative && input.previous !== null
      ? [`The ${window} before counted ${number.format(input.previous)}.`]
      : []),
    'The rule fires again only after the condition has stopped holding.',
  ]
  return {
    subject,
    ...renderMail({
      title: `${rule.name}: ${figure} ${rule.comparison} ${number.format(rule.threshold)}${rule.relative ? '%' : ''}`,
      paragraphs,
      action: { label: 'Open the report', url: input.reportUrl },
      footer: `You get this mail because the alert rule "${rule.name}" of ${input.siteDomain} names this address.`,
      footerLink: { label: 'Unsubscribe', url: input.unsubscribeUrl },
    }),
  }
}

/** The mail of a `crawler_new_agents` rule: which agents appeared on the site for the first time. */
function renderNewAgentsMail(input: AlertMailInput, figure: string) {
  const { rule } = input
  const agents = input.newAgents ?? []
  return {
    subject: `Alert on ${input.siteDomain}: ${rule.name}`,
    ...renderMail({
      title: `${rule.name}: ${number.format(input.observed)} new crawler${input.observed === 1 ? '' : 's'}`,
      paragraphs: [
        `${figure} on ${input.siteDomain}: ${agents.length === 0 ? 'none' : agents.join(', ')}, never seen on the site before.`,
        `Seen in the access logs ingested up to ${input.windowEnd.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
        'The rule fires again only for another agent it has not seen.',
      ],
      action: { label: 'Open the report', url: input.reportUrl },
      footer: `You get this mail because the alert rule "${rule.name}" of ${input.siteDomain} names this address.`,
      footerLink: { label: 'Unsubscribe', url: input.unsubscribeUrl },
    }),
  }
}
