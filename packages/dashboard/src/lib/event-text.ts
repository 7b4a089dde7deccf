/** An event of a timeline or list in words: what happened, and on which page. */
import type { ListedEvent, SessionEvent } from '@pathlight/protocol'
import { formatVital } from './report-format'

export const eventTypeLabels: Record<ListedEvent['type'], string> = {
  pageview: 'Pageview',
  custom_event: 'Custom event',
  outbound: 'Outbound link',
  error: 'Error',
  performance: 'Web vitals',
  engagement: 'Engagement',
  heatmap_click: 'Heatmap click',
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** 'plan: pro, seats: 3' for an event's properties; '' when none. */
export function propertiesText(properties: Record<string, unknown>): string {
  return Object.entries(properties)
    .map(([key, value]) => `${key}: ${text(value)}`)
    .join(', ')
}

/** The headline of an event: 'Viewed /pricing', 'signup', 'Left for https://…', the error, the vitals. */
export function describeEvent(event: ListedEvent | SessionEvent): string {
  switch (event.type) {
    case 'pageview':
      return `Viewed ${event.pathname}`
    case 'custom_event':
      return event.eventName
    case 'outbound':
      return `Left for ${text(event.properties.url ?? '')}`
    case 'error': {
      const message = 'errorMessage' in event ? event.errorMessage : text(event.properties.message ?? '')
      return [event.eventName, message].filter(Boolean).join(': ')
    }
    case 'engagement': {
      const { scroll_depth: depth, engagement_time: time } = event.properties
      return `Read ${typeof depth === 'number' ? depth : 0} % of ${event.pathname}, ${Math.round((typeof time === 'number' ? time : 0) / 1000)} s engaged`
    }
    case 'heatmap_click': {
      const { selector, rage, dead } = event.properties
      const marks = [rage === 1 ? 'rage' : '', dead === 1 ? 'dead' : ''].filter(Boolean).join(', ')
      return `Clicked ${text(selector ?? '')} on ${event.pathname}${marks ? ` (${marks})` : ''}`
    }
    case 'performance': {
      if (!('lcp' in event)) return 'Web vitals'
      const parts = [
        ['LCP', event.lcp, 'ms'],
        ['INP', event.inp, 'ms'],
        ['CLS', event.cls, ''],
        ['FCP', event.fcp, 'ms'],
        ['TTFB', event.ttfb, 'ms'],
      ] as const
      return parts
        .filter(([, value]) => value !== null)
        .map(([name, value, unit]) => `${name} ${formatVital(value, unit)}`)
        .join(' · ')
    }
  }
}

/** '+1:05' from the session's start (minutes:seconds; hours when over an hour). */
export function offsetText(fromIso: string, toIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000))
  const pad = (n: number) => String(n).padStart(2, '0')
  if (seconds >= 3600)
    return `+${Math.floor(seconds / 3600)}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`
  return `+${Math.floor(seconds / 60)}:${pad(seconds % 60)}`
}
