import { describe, expect, it } from 'vitest'
import { percentText, rateFromPercentText, sampleRateErrors } from './replay-settings'

describe('replay settings', () => {
  it('shows a sample rate as a percentage', () => {
    expect(percentText(1)).toBe('100')
    expect(percentText(0.25)).toBe('25')
    expect(percentText(0.29)).toBe('29')
    expect(percentText(0.123456)).toBe('12.35')
    expect(percentText(0)).toBe('0')
  })

  it('reads a percentage back, keeping an untouched value exact', () => {
    expect(rateFromPercentText('12.35', 0.123456)).toBe(0.123456)
    expect(rateFromPercentText(' 50 ', 1)).toBe(0.5)
    expect(rateFromPercentText('0', 1)).toBe(0)
    expect(rateFromPercentText('', 1)).toBeNaN()
    expect(rateFromPercentText('half', 1)).toBeNaN()
    expect(rateFromPercentText('150', 1)).toBe(1.5)
  })

  it('restates the server’s errors as a percentage', () => {
    expect(sampleRateErrors(['must be at most 1'])).toEqual(['Enter a percentage from 0 to 100.'])
    expect(sampleRateErrors([])).toBeUndefined()
    expect(sampleRateErrors(undefined)).toBeUndefined()
  })
})
