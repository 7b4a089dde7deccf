/** Dates and numbers as the dashboard shows them, in the reader's locale and time zone. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/** '22 Nov 2026, 10:00'; an empty string for null. */
export function formatDateTime(iso: string | null): string {
  return iso ? dateTime.format(new Date(iso)) : ''
}

/** '22 Nov 2026' (the reader's day of the instant); an empty string for null. */
export function formatDate(iso: string | null): string {
  return iso ? date.format(new Date(iso)) : ''
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/**
 * How long ago (or from now) `iso` is, relative to `now` (epoch ms): 'just now' within a minute,
 * then '5 minutes ago', '3 hours ago', 'yesterday', '4 days ago'.
 */
export function formatRelative(iso: string, now: number): string {
  const delta = Date.parse(iso) - now
  if (Math.abs(delta) < 60_000) return 'just now'
  for (const [unit, ms] of units) {
    if (Math.abs(delta) >= ms) return relative.format(Math.round(delta / ms), unit)
  }
  return 'just now'
}

/** A duration in milliseconds: '85 ms', '1.2 s'. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

/** A size in bytes: '850 B', '12.3 kB', '4.1 MB' (decimal units). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}
