import { describe, expect, it } from 'vitest'
import { splitByGrain } from './rolled-pages.js'

const at = (iso: string) => Date.parse(iso)
const isoOf = (split: ReturnType<typeof splitByGrain>) =>
  Object.fromEntries(Object.entries(split).map(([key, ms]) => [key, new Date(ms).toISOString()]))

describe('splitByGrain', () => {
  it('cuts a year in New York time into months, the days around them and the hours around those', () => {
    expect(isoOf(splitByGrain(at('2025-04-01T04:00:00Z'), at('2026-04-01T04:00:00Z')))).toEqual({
      dayFrom: '2025-04-02T00:00:00.000Z',
      dayTo: '2026-04-01T00:00:00.000Z',
      monthFrom: '2025-05-01T00:00:00.000Z',
      monthTo: '2026-04-01T00:00:00.000Z',
    })
  })

  it('reads a UTC range of whole months from months alone', () => {
    expect(isoOf(splitByGrain(at('2026-01-01T00:00:00Z'), at('2026-03-01T00:00:00Z')))).toEqual({
      dayFrom: '2026-01-01T00:00:00.000Z',
      dayTo: '2026-03-01T00:00:00.000Z',
      monthFrom: '2026-01-01T00:00:00.000Z',
      monthTo: '2026-03-01T00:00:00.000Z',
    })
  })

  it('leaves the months empty when no whole month is inside, the days go to the end', () => {
    // Days [dayFrom, monthFrom) and [monthTo, dayTo): all of them, and no month.
    expect(isoOf(splitByGrain(at('2026-03-27T23:00:00Z'), at('2026-03-31T22:00:00Z')))).toEqual({
      dayFrom: '2026-03-28T00:00:00.000Z',
      dayTo: '2026-03-31T00:00:00.000Z',
      monthFrom: '2026-03-31T00:00:00.000Z',
      monthTo: '2026-03-31T00:00:00.000Z',
    })
  })

  it('reads hours alone when no whole UTC day is inside (also across midnight)', () => {
    for (const [from, to] of [
      ['2026-03-27T05:00:00Z', '2026-03-27T09:00:00Z'],
      ['2026-03-27T22:00:00Z', '2026-03-28T02:00:00Z'],
    ] as const) {
      const end = new Date(at(to)).toISOString()
      expect(isoOf(splitByGrain(at(from), at(to)))).toEqual({
        dayFrom: end,
        dayTo: end,
        monthFrom: end,
        monthTo: end,
      })
    }
  })

  it('covers every hour of the range exactly once', () => {
    const HOUR = 3_600_000
    const from = at('2025-12-30T07:00:00Z')
    const to = at('2026-03-02T05:00:00Z')
    const { dayFrom, dayTo, monthFrom, monthTo } = splitByGrain(from, to)
    const inside = (hour: number, start: number, end: number) => hour >= start && hour < end
    for (let hour = from - 48 * HOUR; hour < to + 48 * HOUR; hour += HOUR) {
      const covers = [
        inside(hour, monthFrom, monthTo),
        inside(hour, dayFrom, monthFrom),
        inside(hour, monthTo, dayTo),
        inside(hour, from, dayFrom),
        inside(hour, dayTo, to),
      ].filter(Boolean).length
      expect(covers, new Date(hour).toISOString()).toBe(inside(hour, from, to) ? 1 : 0)
    }
  })
})
