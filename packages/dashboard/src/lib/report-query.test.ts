import type { ReportFilter } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { daysOf, queryKeyOf, reportQueryOf, unfiltered } from './report-query'
import { parseReportView, type ReportView } from './report-view'

const NOW = Date.parse('2026-03-10T23:30:00.000Z')
const country: ReportFilter = { parameter: 'country', type: 'equals', value: ['DE'] }

describe('reportQueryOf', () => {
  it("resolves the view's period in its zone and carries its filters, segment and comparison", () => {
    const view = parseReportView(
      `period=7d&tz=Europe/Berlin&segment=5&compare=previous_year&dow=1&page=3&filters=${encodeURIComponent(JSON.stringify([country]))}`,
    )
    expect(reportQueryOf(2, view, NOW)).toEqual({
      siteId: 2,
      // 23:30 UTC is already the 11th in Berlin.
      startDate: '2026-03-05',
      endDate: '2026-03-11',
      timeZone: 'Europe/Berlin',
      filters: [country],
      segment: 5,
      compare: { mode: 'previous_year', matchDayOfWeek: true },
    })
  })

  it('leaves out what the view leaves out, and a custom comparison without both days', () => {
    expect(reportQueryOf(2, { period: 'today', tz: 'UTC', filters: [] }, NOW)).toEqual({
      siteId: 2,
      startDate: '2026-03-10',
      endDate: '2026-03-10',
      timeZone: 'UTC',
      filters: [],
    })
    const custom: ReportView = {
      period: 'today',
      tz: 'UTC',
      filters: [],
      compare: 'custom',
      compareFrom: '2026-01-01',
    }
    expect(reportQueryOf(2, custom, NOW)).not.toHaveProperty('compare')
  })
})

describe('derived values', () => {
  const query = reportQueryOf(2, parseReportView(`period=30d&tz=UTC&segment=5&compare=none`), NOW)

  it('counts the days, drops the filters, and keys equal queries alike', () => {
    expect(daysOf(query)).toBe(30)
    expect(daysOf({ startDate: '2026-03-10', endDate: '2026-03-10' })).toBe(1)
    expect(unfiltered({ ...query, filters: [country] })).toEqual({
      siteId: 2,
      startDate: '2026-02-09',
      endDate: '2026-03-10',
      timeZone: 'UTC',
      filters: [],
    })
    expect(queryKeyOf(query)).toBe(
      queryKeyOf(reportQueryOf(2, parseReportView('segment=5&tz=UTC&compare=none'), NOW)),
    )
    expect(queryKeyOf(query)).not.toBe(queryKeyOf({ ...query, siteId: 3 }))
  })
})
