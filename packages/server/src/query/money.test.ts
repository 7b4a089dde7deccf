import { describe, expect, it } from 'vitest'
import { currencyExponent, moneyOf, scaledAmount } from './money.js'

describe('money', () => {
  it('takes the ISO 4217 exponent, 2 for a code the list lacks', () => {
    expect([currencyExponent('USD'), currencyExponent('JPY'), currencyExponent('BHD')]).toEqual([2, 0, 3])
    expect([currencyExponent('CLF'), currencyExponent('QQQ')]).toEqual([4, 2])
  })

  it('rounds half away from zero, once, at the exponent', () => {
    expect(moneyOf('81.825', 'USD')).toBe(81.83)
    expect(moneyOf('81.824999999999', 'USD')).toBe(81.82)
    expect(moneyOf('-0.005', 'USD')).toBe(-0.01)
    expect(moneyOf('-0.004999999999', 'USD')).toBe(0)
    expect(moneyOf('272.035', 'JPY')).toBe(272)
    expect(moneyOf('272.5', 'JPY')).toBe(273)
    expect(moneyOf('1.0005', 'BHD')).toBe(1.001)
    expect(moneyOf('123456789012345678901234.565', 'USD')).toBe(Number('123456789012345678901234.57'))
  })

  it('divides before rounding (revenue per visitor)', () => {
    expect(moneyOf('10', 'EUR', 3n)).toBe(3.33)
    expect(moneyOf('5.5', 'USD', 3n)).toBe(1.83)
    expect(moneyOf('0.025', 'USD', 2n)).toBe(0.01)
    expect(moneyOf('0.03', 'USD', 2n)).toBe(0.02)
  })

  it('refuses text that is not a decimal of at most 12 places', () => {
    expect(() => scaledAmount('1e3')).toThrow('not a decimal')
    expect(() => scaledAmount('0.0000000000001')).toThrow('more than 12 decimals')
  })
})
