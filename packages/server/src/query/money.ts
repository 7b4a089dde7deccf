/**
 * Exact money arithmetic for the revenue report: amounts are summed by ClickHouse as decimals with
 * `AMOUNT_SCALE` (12) fractional digits (never as floats, so a sum does not depend on the order its
 * parts were added in), and rounded here once, at the end, to the currency's minor unit (ISO 4217
 * exponent: USD 2, JPY 0, BHD 3), half away from zero: 81.825 USD is 81.83, -0.005 USD is -0.01,
 * 272.5 JPY is 273.
 */
import currencyCodes from 'currency-codes'

/** Fractional digits amounts are read and summed with (digits beyond are cut off). */
export const AMOUNT_SCALE = 12

/** The exponent of codes ISO 4217 does not list (3 letters all the same, such as a made-up code). */
const DEFAULT_EXPONENT = 2

/**
 * The ISO 4217 exponent (number of minor-unit digits) of a currency code, from the `currency-codes`
 * package's copy of the ISO list; 2 for a code the list lacks.
 * @param code an upper-case 3-letter code
 */
export function currencyExponent(code: string): number {
  const digits = currencyCodes.code(code)?.digits
  return typeof digits === 'number' && Number.isInteger(digits) && digits >= 0 ? digits : DEFAULT_EXPONENT
}

/**
 * A decimal text (as ClickHouse writes a Decimal: `-12.5`, `3`, `0.000000000001`) as an integer of
 * 10^-AMOUNT_SCALE units.
 * @throws Error for text that is not such a decimal or has more than AMOUNT_SCALE fractional digits
 */
export function scaledAmount(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!match) throw new Error(`not a decimal: ${JSON.stringify(text)}`)
  const [, sign, whole, fraction = ''] = match
  if (fraction.length > AMOUNT_SCALE) throw new Error(`more than ${AMOUNT_SCALE} decimals: ${text}`)
  const units = BigInt(`${whole}${fraction.padEnd(AMOUNT_SCALE, '0')}`)
  return sign === '-' ? -units : units
}

/**
 * `units` (10^-AMOUNT_SCALE each) divided by `divisor` and rounded to `exponent` decimals, half away
 * from zero, as a number (the nearest double to that decimal, which JSON writes in its short form).
 * @param divisor a positive integer (1 for a plain rounding)
 */
export function roundedAmount(units: bigint, exponent: number, divisor = 1n): number {
  const step = 10n ** BigInt(AMOUNT_SCALE - exponent) * divisor
  const negative = units < 0n
  const magnitude = negative ? -units : units
  let steps = magnitude / step
  if ((magnitude % step) * 2n >= step) steps += 1n
  const scale = 10n ** BigInt(exponent)
  const text = `${steps / scale}${exponent > 0 ? `.${String(steps % scale).padStart(exponent, '0')}` : ''}`
  const value = Number(text)
  return negative && value !== 0 ? -value : value
}

/**
 * A summed decimal text in `currency`, rounded once to its minor unit (optionally divided first).
 * @param sum the sum as ClickHouse writes it (`toString` of a Decimal)
 * @param divisor a positive integer, e.g. visitors for revenue per visitor
 */
export function moneyOf(sum: string, currency: string, divisor = 1n): number {
  return roundedAmount(scaledAmount(sum), currencyExponent(currency), divisor)
}
