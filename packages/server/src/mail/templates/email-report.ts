/**
 * The scheduled report mail: the headline figures of the period with their change against the period
 * before, then the top pages, sources and countries and the goal conversions, as tables; both parts
 * from the same figures. The HTML follows the one layout of every mail (`layout.ts`: inline styles,
 * one column, the same header and footer) with tables of its own; every value is escaped. The footer
 * says why the reader gets it and links to the unsubscribe page.
 */
import type { EmailReportFrequency } from '@pathlight/protocol'
import type { ReportFigures } from '../../email-reports/report-figures.js'
import { escapeHtml } from './layout.js'

/** What the report mail shows besides the figures. */
export interface EmailReportMailInput {
  siteDomain: string
  frequency: EmailReportFrequency
  figures: ReportFigures
  /** The dashboard's overview of the site over the period. */
  dashboardUrl: string
  /** The page that unsubscribes the recipient (no sign-in needed). */
  unsubscribeUrl: string
}

const font = 'font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Helvetica,Arial,sans-serif'
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 })
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' })
const dayFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
})

/** `2026-03-02` as `Mar 2, 2026`. */
export const formatDay = (day: string): string => dayFormat.format(new Date(`${day}T00:00:00Z`))

/** Seconds as `1m 05s` (`42s` under a minute, `1h 02m` from an hour). */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

/** A relative change as `+12%`, `-8%`, `0%`; `new` when the period before had none. */
export function formatChange(change: number | null): string {
  if (change === null) return 'new'
  const rounded = Math.round(change * 100)
  return `${rounded > 0 ? '+' : rounded < 0 ? '\u2212' : ''}${Math.abs(rounded)}%`
}

/** An ISO 3166-1 alpha-2 code as its English name (`DE` Germany); '' or unknown codes as given. */
export function countryName(code: string): string {
  if (code === '') return 'Unknown'
  try {
    return regionNames.of(code) ?? code
  } catch {
    return code
  }
}

/** Render the report mail. @returns the subject and both parts */
export function renderEmailReport(input: EmailReportMailInput): {
  subject: string
  html: string
  text: string
} {
  const { figures } = input
  const range = `${formatDay(figures.period.startDate)} \u2013 ${formatDay(figures.period.endDate)}`
  const label = input.frequency === 'weekly' ? 'Weekly' : 'Monthly'
  const title = `${label} report for ${input.siteDomain}`
  const subject = `${input.siteDomain}: ${input.frequency} report, ${range}`
  const before = `${formatDay(figures.previousPeriod.startDate)} \u2013 ${formatDay(figures.previousPeriod.endDate)}`
  // Bounce rate down is good news, the rest up; the colour says which.
  const headline = [
    {
      name: 'Visitors',
      value: integer.format(figures.visitors.current),
      figure: figures.visitors,
      upIsGood: true,
    },
    {
      name: 'Pageviews',
      value: integer.format(figures.pageviews.current),
      figure: figures.pageviews,
      upIsGood: true,
    },
    {
      name: 'Bounce rate',
      value: percent.format(figures.bounceRate.current),
      figure: figures.bounceRate,
      upIsGood: false,
    },
    {
      name: 'Visit duration',
      value: formatDuration(figures.visitDuration.current),
      figure: figures.visitDuration,
      upIsGood: true,
    },
  ]
  // From the tracker's engagement events; left out when the period has none.
  const engaged =
    figures.engagedTimePerVisit === null
      ? null
      : `Engaged time per visit: ${formatDuration(figures.engagedTimePerVisit)}`
  const tables: { title: string; head: [string, string]; rows: [string, string][] }[] = [
    {
      title: 'Top pages',
      head: ['Page', 'Pageviews'],
      // With engagement data: engaged time per pageview and median scroll depth after the count.
      rows: figures.topPages.map((p) => [
        p.pathname,
        [
          integer.format(p.pageviews),
          ...(p.engagedTime === null ? [] : [`${formatDuration(p.engagedTime)} engaged`]),
          ...(p.scrollDepth === null ? [] : [`${Math.round(p.scrollDepth)} % read`]),
        ].join(' · '),
      ]),
    },
    {
      title: 'Top sources',
      head: ['Source', 'Visitors'],
      rows: figures.topSources.map((s) => [s.source, integer.format(s.visitors)]),
    },
    {
      title: 'Top countries',
      head: ['Country', 'Visitors'],
      rows: figures.topCountries.map((c) => [countryName(c.country), integer.format(c.visitors)]),
    },
    {
      title: 'Goal conversions',
      head: ['Goal', 'Conversions'],
      rows: figures.goals.map((g) => [
        g.name,
        `${integer.format(g.conversions)} (${percent.format(g.conversionRate)})`,
      ]),
    },
  ]
  const footer =
    `You get this ${input.frequency} report of ${input.siteDomain} because someone with access to it ` +
    'in Pathlight added this address.'

  const changeColour = (change: number | null, upIsGood: boolean) => {
    if (change === null || Math.round(change * 100) === 0) return '#6b7280'
    return change > 0 === upIsGood ? '#047857' : '#b91c1c'
  }
  const cards = headline
    .map(
      (h) => `<td style="width:25%;padding:12px 8px;vertical-align:top;border:1px solid #e5e7eb;${font}">
<div style="font-size:12px;line-height:16px;color:#6b7280">${escapeHtml(h.name)}</div>
<div style="font-size:20px;line-height:28px;font-weight:700;color:#111827">${escapeHtml(h.value)}</div>
<div style="font-size:12px;line-height:16px;color:${changeColour(h.figure.change, h.upIsGood)}">${escapeHtml(formatChange(h.figure.change))}</div>
</td>`,
    )
    .join('\n')
  const cell = 'padding:6px 0;font-size:14px;line-height:20px;border-bottom:1px solid #f3f4f6'
  const tableHtml = tables
    .map(
      (
        t,
      ) => `<h2 style="margin:24px 0 8px;font-size:16px;line-height:24px;color:#111827">${escapeHtml(t.title)}</h2>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;${font}">
<tr><th align="left" style="${cell};font-size:12px;color:#6b7280;font-weight:600">${escapeHtml(t.head[0])}</th><th align="right" style="${cell};font-size:12px;color:#6b7280;font-weight:600">${escapeHtml(t.head[1])}</th></tr>
${
  t.rows.length === 0
    ? `<tr><td colspan="2" style="${cell};color:#6b7280">None in this period</td></tr>`
    : t.rows
        .map(
          ([name, value]) =>
            `<tr><td style="${cell};color:#1f2937;word-break:break-all">${escapeHtml(name)}</td><td align="right" style="${cell};color:#1f2937;white-space:nowrap">${escapeHtml(value)}</td></tr>`,
        )
        .join('\n')
}
</table>`,
    )
    .join('\n')
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;${font}">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;${font}">
<p style="margin:0 0 24px;font-size:14px;font-weight:700;color:#2563eb">Pathlight</p>
<h1 style="margin:0 0 4px;font-size:20px;line-height:28px;color:#111827">${escapeHtml(title)}</h1>
<p style="margin:0 0 20px;font-size:14px;line-height:20px;color:#6b7280">${escapeHtml(range)}, compared with ${escapeHtml(before)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;table-layout:fixed">
<tr>
${cards}
</tr>
</table>
${engaged === null ? '' : `<p style="margin:12px 0 0;font-size:14px;line-height:20px;color:#374151">${escapeHtml(engaged)}</p>`}
${tableHtml}
<p style="margin:28px 0 0"><a href="${escapeHtml(input.dashboardUrl)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;font-size:15px">Open the dashboard</a></p>
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px">
<p style="margin:0;font-size:12px;line-height:18px;color:#6b7280">${escapeHtml(footer)} <a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#6b7280">Unsubscribe</a></p>
</div>
</body></html>
`
  const pad = (name: string, value: string) => `${name.padEnd(32)} ${value}`
  const text = [
    title,
    `${range}, compared with ${before}`,
    '',
    ...headline.map((h) => pad(h.name, `${h.value} (${formatChange(h.figure.change)})`)),
    ...(engaged === null ? [] : [engaged]),
    '',
    ...tables.flatMap((t) => [
      t.title,
      ...(t.rows.length === 0
        ? ['  None in this period']
        : t.rows.map(([name, value]) => pad(`  ${name}`, value))),
      '',
    ]),
    `Open the dashboard: ${input.dashboardUrl}`,
    '',
    '--',
    footer,
    `Unsubscribe: ${input.unsubscribeUrl}`,
    '',
  ].join('\n')
  return { subject, html, text }
}
