import { describe, expect, it } from 'vitest'
import { placeAnnotations } from './chart-annotations'

const note = (date: string, text = date) => ({ date, text })

describe('placeAnnotations', () => {
  it('puts each day in its day bucket, several of one day together, earlier days left out', () => {
    const times = ['2024-02-28', '2024-02-29', '2024-03-01'].map((d) => `${d}T00:00:00.000Z`)
    expect(
      placeAnnotations(
        times,
        [note('2024-03-01', 'a'), note('2024-02-29', 'leap'), note('2024-03-01', 'b')],
        'UTC',
      ),
    ).toEqual([
      { index: 1, annotations: [note('2024-02-29', 'leap')] },
      { index: 2, annotations: [note('2024-03-01', 'a'), note('2024-03-01', 'b')] },
    ])
    expect(placeAnnotations(times, [note('2024-02-27')], 'UTC')).toEqual([])
  })

  it('uses the week or month holding the day, and the day of the zone', () => {
    const weeks = ['2026-03-02', '2026-03-09', '2026-03-16'].map((d) => `${d}T00:00:00.000Z`)
    expect(placeAnnotations(weeks, [note('2026-03-12'), note('2026-03-22')], 'UTC')).toEqual([
      { index: 1, annotations: [note('2026-03-12')] },
      { index: 2, annotations: [note('2026-03-22')] },
    ])
    expect(placeAnnotations(weeks, [note('2026-03-01')], 'UTC')).toEqual([])
    // Berlin's 2026-03-10 begins at 23:00 UTC the day before.
    const berlin = ['2026-03-08T23:00:00.000Z', '2026-03-09T23:00:00.000Z']
    expect(placeAnnotations(berlin, [note('2026-03-10')], 'Europe/Berlin')).toEqual([
      { index: 1, annotations: [note('2026-03-10')] },
    ])
  })

  it('takes the first hour of the day for hourly buckets', () => {
    const hours = [
      '2026-03-10T22:00:00.000Z',
      '2026-03-10T23:00:00.000Z',
      '2026-03-11T00:00:00.000Z',
      '2026-03-11T01:00:00.000Z',
    ]
    expect(placeAnnotations(hours, [note('2026-03-11')], 'UTC')).toEqual([
      { index: 2, annotations: [note('2026-03-11')] },
    ])
  })
})
