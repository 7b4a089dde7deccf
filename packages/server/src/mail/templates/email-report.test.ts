import { describe, expect, it } from 'vitest'
import type { ReportFigures } from '../../email-reports/report-figures.js'
import { renderEmailReport } from './email-report.js'

const figure = { current: 0, previous: 0, change: null }
const figures = (
  topPages: ReportFigures['topPages'],
  engagedTimePerVisit: number | null = null,
): ReportFigures => ({
  period: { startDate: '2026-05-04', endDate: '2026-05-10' },
  previousPeriod: { startDate: '2026-04-27', endDate: '2026-05-03' },
  visitors: figure,
  pageviews: figure,
  bounceRate: figure,
  visitDuration: figure,
  engagedTimePerVisit,
  topPages,
  topSources: [],
  topCountries: [],
  goals: [],
})
const render = (topPages: ReportFigures['topPages'], engagedTimePerVisit: number | null = null) =>
  renderEmailReport({
    siteDomain: 'shop.test',
    frequency: 'weekly',
    figures: figures(topPages, engagedTimePerVisit),
    dashboardUrl: 'https://pathlight.test/sites/1',
    unsubscribeUrl: 'https://pathlight.test/unsubscribe',
  })

describe('renderEmailReport: top pages', () => {
  it('shows engaged time per pageview and median scroll depth where the page has engagement', () => {
    const { html, text } = render([
      { pathname: '/guide', pageviews: 1200, visitors: 800, engagedTime: 65, scrollDepth: 74.5 },
      { pathname: '/old', pageviews: 30, visitors: 20, engagedTime: null, scrollDepth: null },
    ])
    for (const part of [html, text]) {
      expect(part).toContain('1,200 · 1m 05s engaged · 75 % read')
      expect(part).not.toContain('30 ·')
    }
  })

  it('shows the engaged time per visit when the period has engagement, nothing without', () => {
    const engaged = render([], 125.4)
    for (const part of [engaged.html, engaged.text]) expect(part).toContain('Engaged time per visit: 2m 05s')
    const { html, text } = render([])
    expect(html).not.toContain('Engaged time per visit')
    expect(text).not.toContain('Engaged time per visit')
  })
})
