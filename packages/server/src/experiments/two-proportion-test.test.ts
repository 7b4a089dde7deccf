/**
 * The two-proportion z-test and the Wald interval on known counts. Expected values are computed in
 * the test from the textbook formulas (and, for the worked example, checked against scipy:
 * z = 2.677397763008329, p = 0.007419649261025687 for 200/1000 against 250/1000).
 */
import { describe, expect, it } from 'vitest'
import { normalCdf } from '../query/normal-distribution.js'
import { compareWithControl, Z_95 } from './two-proportion-test.js'

/** The z statistic with pooled standard error, written out independently of the module. */
function pooledZ(xc: number, nc: number, xv: number, nv: number): number {
  const p = (xc + xv) / (nc + nv)
  return (xv / nv - xc / nc) / Math.sqrt(p * (1 - p) * (1 / nc + 1 / nv))
}

describe('compareWithControl', () => {
  it('matches the formula on 200/1000 (control) against 250/1000', () => {
    const result = compareWithControl(
      { sessions: 1000, conversions: 200 },
      { sessions: 1000, conversions: 250 },
    )
    const z = pooledZ(200, 1000, 250, 1000)
    // Pooled rate 0.225: SE = √(0.225·0.775·0.002) = 0.0186748..., z = 0.05 / SE.
    expect(z).toBeCloseTo(0.05 / Math.sqrt(0.225 * 0.775 * 0.002), 12)
    expect(result.zScore).toBeCloseTo(z, 12)
    expect(result.zScore).toBeCloseTo(2.677397763008329, 12)
    expect(result.pValue).toBeCloseTo(2 * (1 - normalCdf(z)), 12)
    expect(result.pValue).toBeCloseTo(0.007419649261025687, 12)
    expect(result.uplift).toBeCloseTo(0.25, 12)
    const se = Math.sqrt((0.2 * 0.8) / 1000 + (0.25 * 0.75) / 1000)
    expect(result.ci95?.[0]).toBeCloseTo(0.05 - 1.959963984540054 * se, 12)
    expect(result.ci95?.[1]).toBeCloseTo(0.05 + 1.959963984540054 * se, 12)
    expect(result.ci95?.[0]).toBeCloseTo(0.01346362168753984, 12)
    expect(result.ci95?.[1]).toBeCloseTo(0.08653637831246014, 12)
  })

  it('is antisymmetric in the arms for z and symmetric for the p-value', () => {
    const ab = compareWithControl({ sessions: 480, conversions: 31 }, { sessions: 512, conversions: 52 })
    const ba = compareWithControl({ sessions: 512, conversions: 52 }, { sessions: 480, conversions: 31 })
    expect(ab.zScore).toBeCloseTo(-(ba.zScore ?? 0), 12)
    expect(ab.pValue).toBeCloseTo(ba.pValue ?? 0, 12)
    expect(ab.zScore).toBeCloseTo(pooledZ(31, 480, 52, 512), 12)
  })

  it('gives z = 0, p = 1 and uplift 0 for equal rates with unequal sizes', () => {
    const result = compareWithControl({ sessions: 100, conversions: 10 }, { sessions: 300, conversions: 30 })
    expect(result.zScore).toBe(0)
    expect(result.pValue).toBe(1)
    expect(result.uplift).toBe(0)
    const half = Z_95 * Math.sqrt(0.09 / 100 + 0.09 / 300)
    expect(result.ci95?.[0]).toBeCloseTo(-half, 12)
    expect(result.ci95?.[1]).toBeCloseTo(half, 12)
  })

  it('keeps tiny p-values (no cancellation in 1 - Φ)', () => {
    const result = compareWithControl(
      { sessions: 100_000, conversions: 10_000 },
      { sessions: 100_000, conversions: 12_000 },
    )
    const z = pooledZ(10_000, 100_000, 12_000, 100_000)
    expect(result.zScore).toBeCloseTo(z, 9)
    expect(result.pValue).toBeGreaterThan(0)
    expect(result.pValue).toBeLessThan(1e-40)
    // Φ(-z) relative accuracy: compare with the same formula's value.
    expect((result.pValue ?? 0) / (2 * normalCdf(-z))).toBeCloseTo(1, 9)
  })

  it('answers null for what is undefined', () => {
    const none = { uplift: null, zScore: null, pValue: null, ci95: null }
    // No sessions on either side.
    expect(compareWithControl({ sessions: 0, conversions: 0 }, { sessions: 10, conversions: 1 })).toEqual(
      none,
    )
    expect(compareWithControl({ sessions: 10, conversions: 1 }, { sessions: 0, conversions: 0 })).toEqual(
      none,
    )
    // Nobody converted: pooled rate 0, both rates 0.
    expect(compareWithControl({ sessions: 50, conversions: 0 }, { sessions: 60, conversions: 0 })).toEqual(
      none,
    )
    // Everybody converted: pooled rate 1; uplift is defined (0).
    expect(compareWithControl({ sessions: 50, conversions: 50 }, { sessions: 60, conversions: 60 })).toEqual({
      ...none,
      uplift: 0,
    })
  })

  it('handles a control rate of 0 against a positive variant rate', () => {
    const result = compareWithControl({ sessions: 100, conversions: 0 }, { sessions: 100, conversions: 5 })
    expect(result.uplift).toBeNull()
    expect(result.zScore).toBeCloseTo(pooledZ(0, 100, 5, 100), 12)
    expect(result.pValue).toBeCloseTo(2 * normalCdf(-pooledZ(0, 100, 5, 100)), 12)
    const se = Math.sqrt((0.05 * 0.95) / 100)
    expect(result.ci95).toEqual([0.05 - Z_95 * se, 0.05 + Z_95 * se])
  })

  it('handles rates of 0 and 1 on opposite arms (z defined, Wald interval degenerate)', () => {
    const result = compareWithControl({ sessions: 20, conversions: 0 }, { sessions: 20, conversions: 20 })
    expect(result.zScore).toBeCloseTo(1 / Math.sqrt(0.25 * 0.1), 12)
    expect(result.pValue).toBeGreaterThan(0)
    expect(result.pValue).toBeLessThan(1e-9)
    expect(result.uplift).toBeNull()
    expect(result.ci95).toBeNull()
  })

  it('uses the 97.5 % normal quantile', () => {
    expect(normalCdf(Z_95)).toBeCloseTo(0.975, 15)
  })
})
