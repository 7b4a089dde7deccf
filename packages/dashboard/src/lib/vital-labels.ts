/** Names and band words of the web vitals. */
import type { WebVitalName, WebVitalRating } from '@pathlight/protocol'

export const vitalLabels: Record<WebVitalName, { short: string; name: string }> = {
  lcp: { short: 'LCP', name: 'Largest Contentful Paint' },
  inp: { short: 'INP', name: 'Interaction to Next Paint' },
  cls: { short: 'CLS', name: 'Cumulative Layout Shift' },
  fcp: { short: 'FCP', name: 'First Contentful Paint' },
  ttfb: { short: 'TTFB', name: 'Time to First Byte' },
}

export const ratingLabels: Record<WebVitalRating, string> = {
  good: 'Good',
  needs_improvement: 'Needs improvement',
  poor: 'Poor',
}
