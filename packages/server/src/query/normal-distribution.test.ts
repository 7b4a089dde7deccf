/**
 * The normal CDF and erfc against reference values computed to 50 digits with mpmath
 * (`mpmath.ncdf`, `mpmath.erfc`), as the nearest doubles: absolute error below 1e-15
 * everywhere (the brief's bound is 1e-7), relative error below 1e-13 in the tails.
 */
import { describe, expect, it } from 'vitest'
import { erfc, normalCdf } from './normal-distribution.js'

const closeTo = (actual: number, expected: number, relative: number, absolute = 0) =>
  Math.abs(actual - expected) <= Math.max(absolute, relative * Math.abs(expected))

describe('normalCdf', () => {
  it.each([
    [0, 0.5],
    [0.3, 0.6179114221889527],
    [-0.5, 0.3085375387259869],
    [1, 0.8413447460685429],
    [-1, 0.15865525393145705],
    [1.644853626951472, 0.95],
    [1.96, 0.9750021048517795],
    [-1.96, 0.024997895148220435],
    [2.5, 0.9937903346742238],
    [-2.5758, 0.005000423737778683],
    [3, 0.9986501019683699],
    [-3, 0.0013498980316300946],
    [5, 0.9999997133484281],
    [8, 0.9999999999999993],
  ])('Φ(%f) = %f within 1e-15', (x, expected) => {
    expect(Math.abs(normalCdf(x) - expected)).toBeLessThan(1e-15)
  })

  it.each([
    [-5, 2.866515718791939e-7],
    [-10, 7.619853024160525e-24],
    [-20, 2.7536241186062337e-89],
    [-37, 5.725571222524577e-300],
  ])('keeps relative accuracy in the lower tail: Φ(%f) = %e', (x, expected) => {
    expect(closeTo(normalCdf(x), expected, 1e-13)).toBe(true)
  })

  it('is symmetric, monotonic, and saturates at 0 and 1', () => {
    for (let x = -8; x <= 8; x += 0.01) {
      expect(Math.abs(normalCdf(x) + normalCdf(-x) - 1)).toBeLessThan(2e-16)
      expect(normalCdf(x + 0.01)).toBeGreaterThanOrEqual(normalCdf(x))
    }
    expect(normalCdf(-40)).toBe(0)
    expect(normalCdf(40)).toBe(1)
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0)
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1)
    expect(normalCdf(Number.NaN)).toBeNaN()
  })
})

describe('erfc', () => {
  // One point on each side of each range boundary of Cody's approximation (0.46875 and 4), and beyond.
  it.each([
    [0, 1],
    [0.1, 0.8875370839817152],
    [0.46875, 0.507386526782062],
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028513],
    [2, 0.004677734981047266],
    [3.9, 3.479224859723174e-8],
    [4, 1.541725790028002e-8],
    [4.5, 1.9661604415428876e-10],
    [6, 2.1519736712498913e-17],
    [10, 2.088487583762545e-45],
    [26, 5.663192408856143e-296],
    [-1, 1.842700792949715],
    [-3, 1.9999779095030015],
  ])('erfc(%f) = %e within 1e-15 relative', (x, expected) => {
    expect(closeTo(erfc(x), expected, 1e-15)).toBe(true)
  })

  it('is 0 beyond 27 and 2 below -27', () => {
    expect(erfc(30)).toBe(0)
    expect(erfc(-30)).toBe(2)
  })
})
