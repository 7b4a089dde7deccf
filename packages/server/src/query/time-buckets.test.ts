import { describe, expect, it } from 'vitest'
import { AppError } from '../shared/errors.js'
import { parseQueryParams } from './params.js'
import { bucketCount, bucketStarts, MAX_BUCKETS } from './time-buckets.js'

const params = (start: string, end: string, zone = 'UTC') =>
  parseQueryParams({ start_date: start, end_date: end, time_zone: zone }, 0)
const iso = (starts: number[]) => starts.map((t) => new Date(t).toISOString())

describe('bucketStarts', () => {
  it('hour buckets follow the wall clock over a DST change (23 and 25 hour days)', () => {
    expect(bucketStarts(params('2026-03-29', '2026-03-29', 'Europe/Berlin'), 'hour')).toHaveLength(23)
    expect(bucketStarts(params('2026-10-25', '2026-10-25', 'Europe/Berlin'), 'hour')).toHaveLength(25)
    expect(iso(bucketStarts(params('2026-03-10', '2026-03-10', 'Asia/Kolkata'), 'hour')).slice(0, 2)).toEqual(
      ['2026-03-09T18:30:00.000Z', '2026-03-09T19:30:00.000Z'],
    )
  })

  it('day, week and month buckets start at local midnights', () => {
    expect(iso(bucketStarts(params('2026-03-28', '2026-03-30', 'Europe/Berlin'), 'day'))).toEqual([
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ])
    // 2026-03-01 is a Sunday: its week began on Monday 02-23.
    expect(iso(bucketStarts(params('2026-03-01', '2026-03-16', 'Europe/Berlin'), 'week'))).toEqual([
      '2026-02-22T23:00:00.000Z',
      '2026-03-01T23:00:00.000Z',
      '2026-03-08T23:00:00.000Z',
      '2026-03-15T23:00:00.000Z',
    ])
    expect(iso(bucketStarts(params('2026-02-15', '2026-04-01', 'America/New_York'), 'month'))).toEqual([
      '2026-02-01T05:00:00.000Z',
      '2026-03-01T05:00:00.000Z',
      '2026-04-01T04:00:00.000Z',
    ])
  })

  it('counts buckets without building them, and refuses more than the maximum', () => {
    for (const unit of ['hour', 'day', 'week', 'month'] as const) {
      const p = params('2026-01-05', '2026-03-29', 'Europe/Berlin')
      expect(bucketCount(p, unit)).toBe(bucketStarts(p, unit).length)
    }
    const days = params('2026-03-28', '2026-03-30', 'Europe/Berlin')
    expect(bucketCount(days, 'minute')).toBe(bucketStarts(days, 'minute').length)
    expect(bucketCount(params('2026-01-01', '2026-03-31'), 'minute')).toBe(90 * 1440)
    try {
      bucketStarts(params('2026-01-01', '2026-03-31'), 'minute')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).status).toBe(400)
      expect((error as AppError).message).toBe(
        `Invalid bucket: too many buckets: 129600 minute buckets in the range, at most ${MAX_BUCKETS}; choose a larger bucket or a shorter range`,
      )
    }
    expect(bucketStarts(params('2026-01-01', '2026-01-06'), 'minute')).toHaveLength(6 * 1440)
  })
})
