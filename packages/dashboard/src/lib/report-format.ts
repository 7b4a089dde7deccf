/** Report figures as the dashboard shows them (English number formats, so figures read alike everywhere). */

const integer = new Intl.NumberFormat('en')
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })
const decimal = new Intl.NumberFormat('en', { maximumFractionDigits: 2 })

/** '1,234'; from 100,000 on '123.4K' when `short`. */
export function formatCount(value: number, short = false): string {
  return short && Math.abs(value) >= 100_000 ? compact.format(value) : integer.format(value)
}

/** '1.67' (at most two decimals). */
export function formatDecimal(value: number): string {
  return decimal.format(value)
}

/** A fraction as a percentage with at most one decimal: 0.3333 -> '33.3%', 0.5 -> '50%'. */
export function formatPercent(fraction: number): string {
  return `${decimal.format(Math.round(fraction * 1000) / 10)}%`
}

/** Seconds as '45s', '2m 05s', '1h 02m' (rounded to whole seconds). */
export function formatSeconds(seconds: number): string {
  const total = Math.round(seconds)
  if (total < 60) return `${total}s`
  const pad = (n: number) => String(n).padStart(2, '0')
  if (total < 3600) return `${Math.floor(total / 60)}m ${pad(total % 60)}s`
  return `${Math.floor(total / 3600)}h ${pad(Math.floor((total % 3600) / 60))}m`
}

/** A relative change: '+50%', '−33.3%', '0%'; null (no previous figure) is '–'. */
export function formatChange(change: number | null): string {
  if (change === null) return '–'
  const text = formatPercent(Math.abs(change))
  if (text === '0%') return '0%'
  return `${change > 0 ? '+' : '−'}${text}`
}

/** A web vital in its unit: '2.5 s' from 1000 ms, '180 ms', CLS '0.12'; '–' for null. */
export function formatVital(value: number | null, unit: 'ms' | ''): string {
  if (value === null) return '–'
  if (unit === '') return decimal.format(value)
  return value >= 1000
    ? `${decimal.format(Math.round(value / 10) / 100)} s`
    : `${integer.format(Math.round(value))} ms`
}
