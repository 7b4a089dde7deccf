/**
 * A variant's conversion rate against the control's, the classical large-sample way:
 *
 * - rates p_c = x_c / n_c and p_v = x_v / n_v (x conversions, n exposed sessions);
 * - uplift = (p_v - p_c) / p_c, the relative change (0.25 = +25 %);
 * - z = (p_v - p_c) / SE_pooled with the pooled rate p = (x_c + x_v) / (n_c + n_v) and
 *   SE_pooled = √(p(1 - p)(1/n_c + 1/n_v)) (the standard error under H0: equal rates);
 * - p-value = 2·(1 - Φ(|z|)), computed as 2·Φ(-|z|) so small values keep their digits (Φ from
 *   `query/normal-distribution.ts`);
 * - 95 % confidence interval of p_v - p_c (Wald, unpooled): (p_v - p_c) ± z₀.₉₇₅·SE with
 *   SE = √(p_c(1 - p_c)/n_c + p_v(1 - p_v)/n_v) and z₀.₉₇₅ = 1.959963984540054.
 *
 * What is undefined is null, never NaN or Infinity: everything when either side has no sessions;
 * uplift when p_c = 0; z and p-value when the pooled rate is 0 or 1 (SE_pooled = 0: nobody or
 * everybody converted); the interval when SE = 0 (both rates 0 or 1: Wald's interval degenerates).
 * The normal approximation wants roughly ten conversions and ten non-conversions per arm; with fewer,
 * read the figures as indications. Each variant is compared with the control on its own: with several
 * variants, no correction for multiple comparisons is applied.
 */
import { normalCdf } from '../query/normal-distribution.js'

/** Φ⁻¹(0.975): the 95 % two-sided normal quantile. */
export const Z_95 = 1.959963984540054

/** One arm's counts: exposed sessions and those that converted (0 <= conversions <= sessions). */
export interface ArmCounts {
  sessions: number
  conversions: number
}

/** A variant against the control; fields as in `VariantResult` (`experiments/experiment.ts`). */
export interface Comparison {
  uplift: number | null
  zScore: number | null
  pValue: number | null
  ci95: [number, number] | null
}

/** Compare a variant's counts with the control's (see the module comment for formulas and nulls). */
export function compareWithControl(control: ArmCounts, variant: ArmCounts): Comparison {
  if (control.sessions === 0 || variant.sessions === 0) {
    return { uplift: null, zScore: null, pValue: null, ci95: null }
  }
  const controlRate = control.conversions / control.sessions
  const variantRate = variant.conversions / variant.sessions
  const difference = variantRate - controlRate

  const pooled = (control.conversions + variant.conversions) / (control.sessions + variant.sessions)
  const pooledError = Math.sqrt(pooled * (1 - pooled) * (1 / control.sessions + 1 / variant.sessions))
  const zScore = pooledError > 0 ? difference / pooledError : null

  const error = Math.sqrt(
    (controlRate * (1 - controlRate)) / control.sessions +
      (variantRate * (1 - variantRate)) / variant.sessions,
  )
  return {
    uplift: controlRate > 0 ? difference / controlRate : null,
    zScore,
    pValue: zScore === null ? null : 2 * normalCdf(-Math.abs(zScore)),
    ci95: error > 0 ? [difference - Z_95 * error, difference + Z_95 * error] : null,
  }
}
