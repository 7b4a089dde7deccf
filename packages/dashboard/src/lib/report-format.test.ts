import { describe, expect, it } from 'vitest'
import { formatChange, formatCount, formatPercent, formatSeconds, formatVital } from './report-format'

describe('report formats', () => {
  it('formats counts, percentages and durations', () => {
    expect(formatCount(1234)).toBe('1,234')
    expect(formatCount(123_456, true)).toBe('123.5K')
    expect(formatPercent(1 / 3)).toBe('33.3%')
    expect(formatPercent(0.5)).toBe('50%')
    expect(formatSeconds(35)).toBe('35s')
    expect(formatSeconds(125.4)).toBe('2m 05s')
    expect(formatSeconds(3725)).toBe('1h 02m')
  })

  it('formats changes and vitals', () => {
    expect(formatChange(0.5)).toBe('+50%')
    expect(formatChange(-1 / 3)).toBe('−33.3%')
    expect(formatChange(0)).toBe('0%')
    expect(formatChange(null)).toBe('–')
    expect(formatVital(2500, 'ms')).toBe('2.5 s')
    expect(formatVital(4250, 'ms')).toBe('4.25 s')
    expect(formatVital(180.4, 'ms')).toBe('180 ms')
    expect(formatVital(0.238, '')).toBe('0.24')
    expect(formatVital(null, 'ms')).toBe('–')
  })
})
