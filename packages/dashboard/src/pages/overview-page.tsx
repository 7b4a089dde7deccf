/**
 * A site's overview: live visitors, the six headline figures against the previous period, a chart
 * of visitors, sessions or pageviews per bucket, and the breakdowns (pages, sources, locations,
 * devices, custom events), every row a filter. What the page shows at first paint comes in one request
 * (`overviewParts`, `POST .../reports`; for members started by the site scope, `overview-prefetch.ts`),
 * the chart's series with the one figure it shows; changing a card's tab, showing all rows or changing
 * the chart's figure or bucket loads that alone with the GET routes. With a comparison chosen
 * (`compare` in the URL), the chart draws the compared range's series dashed; the range's annotations
 * are marked on it and listed under it. Filters that select custom events (a custom event's name or
 * property) pass no pageview: a notice says which figures are the matching sessions' and which count
 * matching pageviews only (`custom-event-filters.ts`), and the Pages card says why it is empty.
 */
import type { SeriesBucket } from '@pathlight/protocol'
import { useMemo } from 'react'

import { FormError } from '../components/form-error'
import { AnnotationsCard } from '../components/reports/annotations-card'
import { BreakdownCard } from '../components/reports/breakdown-card'
import { EventsCard } from '../components/reports/events-card'
import { GeoCredit } from '../components/reports/geo-credit'
import { ImportedHoursNote } from '../components/reports/imported-days-note'
import { KpiCards } from '../components/reports/kpi-cards'
import { LiveVisitors } from '../components/reports/live-visitors'
import { PageEngagementCard } from '../components/reports/page-engagement-card'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { Segmented } from '../components/reports/segmented'
import { type ChartPoint, TimeSeriesChart } from '../components/reports/time-series-chart'
import { WorldMapCard } from '../components/reports/world-map-card'
import type { ChartAnnotation } from '../lib/chart-annotations'
import { fromSiteStart } from '../lib/chart-start'
import { selectsCustomEventsOnly } from '../lib/custom-event-filters'
import { dayIn, formatDay } from '../lib/dates'
import { livePart, overviewParts, seriesPart, statsPart } from '../lib/overview-parts'
import { takeOverview } from '../lib/overview-prefetch'
import { createReportBatch } from '../lib/report-batch'
import { breakdownCards } from '../lib/report-labels'
import { bucketOf, bucketsFor, type ChartMetric, chartMetrics, zoneOf } from '../lib/report-view'
import { useReportPart } from '../lib/use-report-part'
import { useResource } from '../lib/use-resource'
import type { ReportContext } from './report-context'

const metricLabels: Record<ChartMetric, string> = {
  visitors: 'Visitors',
  sessions: 'Sessions',
  pageviews: 'Pageviews',
}
const bucketLabels = { hour: 'Hours', day: 'Days', week: 'Weeks', month: 'Months' } as const

/**
 * The overview of the site in `ctx`; with `createdAt` (members see it, shared views do not), the chart
 * of a site added within the range starts on its first bucket (see `fromSiteStart`).
 */
export function OverviewPage({ ctx, createdAt }: { ctx: ReportContext; createdAt?: string }) {
  const { view, setView } = ctx
  const bucket = bucketOf(view, ctx.days)
  const metric = view.metric ?? 'visitors'
  // One batch per query, with the chart's bucket and figure of that moment; a later change of either
  // asks for another series part, which the batch does not hold, so it is loaded alone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: queryKey stands for query; bucket and metric deliberately left out
  const batch = useMemo(
    () =>
      createReportBatch(
        overviewParts(bucket, metric),
        (parts) =>
          (ctx.shared ? null : takeOverview(ctx.query, parts)) ?? ctx.reports.batch(ctx.query, parts),
        (part) => ctx.reports.part(ctx.query, part),
      ),
    [ctx.queryKey, ctx.reports],
  )
  const stats = useReportPart(ctx, statsPart, batch)
  const seriesReport = useReportPart(ctx, seriesPart(bucket, metric), batch)
  const annotations = useResource(
    `annotations:${ctx.siteId}:${ctx.query.startDate}:${ctx.query.endDate}`,
    () => ctx.reports.annotations(ctx.query),
  )
  const firstLive = () => batch.load(livePart).then((answer) => answer.data)
  const meta = stats.data?.meta
  const customEventsOnly = selectsCustomEventsOnly(ctx.query.filters)
  // While another figure or bucket loads, the chart keeps the one it has, under that figure's name.
  const series = seriesReport.data
  const shown = series && (series.meta.metrics.includes(metric) ? metric : series.meta.metrics[0])
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} aside={<LiveVisitors reports={ctx.reports} first={firstLive} />} />
      <FormError error={stats.error ?? seriesReport.error} />
      {customEventsOnly && (
        <p className="notice" data-testid="custom-event-filter-note">
          These filters select custom events, which are not pageviews: Pageviews and the Pages card count only
          pageviews that pass them, so none. Visitors, sessions, bounce rate, session duration and pages per
          session are those of the sessions with a matching event, all their pages included.
        </p>
      )}
      <KpiCards
        stats={stats.data?.data}
        stale={stats.loading}
        previousRange={
          meta?.previousStartDate && meta.previousEndDate
            ? { startDate: meta.previousStartDate, endDate: meta.previousEndDate }
            : undefined
        }
      />
      <section className="card" aria-labelledby="chart-title" aria-busy={seriesReport.loading}>
        <div className="card-head">
          <h2 id="chart-title">{metricLabels[shown ?? metric]}</h2>
          <div className="card-tools">
            <Segmented
              label="Chart figure"
              options={chartMetrics.map((m) => ({ value: m, label: metricLabels[m] }))}
              value={metric}
              onChange={(m) => setView({ ...view, metric: m as ChartMetric }, { replace: true })}
            />
            <Segmented
              label="Bucket"
              options={bucketsFor(ctx.days).map((b) => ({ value: b, label: bucketLabels[b] }))}
              value={bucket}
              onChange={(b) => setView({ ...view, bucket: b as typeof bucket }, { replace: true })}
            />
          </div>
        </div>
        {series && shown && (
          <SiteChart
            all={series.data.map((p) => ({
              time: p.time,
              value: p[shown] ?? 0,
              ...(p.previous === undefined
                ? {}
                : { previous: p.previous && { time: p.previous.time, value: p.previous[shown] ?? 0 } }),
            }))}
            annotations={annotations.data ?? []}
            createdAt={createdAt}
            lastDay={ctx.query.endDate}
            zone={zoneOf(view)}
            bucket={series.meta.bucket}
            days={ctx.days}
            label={metricLabels[shown]}
          />
        )}
        {bucket === 'hour' && ctx.query.filters.length === 0 && !ctx.query.segment && (
          <ImportedHoursNote ctx={ctx} />
        )}
        <AnnotationsCard ctx={ctx} annotations={annotations} />
      </section>
      <div className="report-grid">
        <BreakdownCard
          ctx={ctx}
          batch={batch}
          {...breakdownCards.pages}
          empty={customEventsOnly ? 'No pageviews pass these filters: they select custom events.' : undefined}
        />
        <PageEngagementCard ctx={ctx} />
        <BreakdownCard ctx={ctx} batch={batch} {...breakdownCards.sources} />
        <WorldMapCard ctx={ctx} batch={batch} />
        <BreakdownCard ctx={ctx} batch={batch} {...breakdownCards.locations} footer={<GeoCredit />} />
        <BreakdownCard ctx={ctx} batch={batch} {...breakdownCards.devices} />
        <EventsCard ctx={ctx} batch={batch} />
      </div>
    </div>
  )
}

/**
 * The chart of `all` the range's points; with `createdAt` in the range, from the site's creation on
 * (`fromSiteStart`), saying so under the chart, since the chart is then shorter than the range.
 */
function SiteChart({
  all,
  createdAt,
  lastDay,
  zone,
  bucket,
  days,
  label,
  annotations,
}: {
  all: ChartPoint[]
  annotations: readonly ChartAnnotation[]
  createdAt: string | undefined
  lastDay: string
  zone: string
  bucket: SeriesBucket
  days: number
  label: string
}) {
  const points = createdAt ? fromSiteStart(all, Date.parse(createdAt), lastDay, zone) : all
  return (
    <>
      <TimeSeriesChart
        points={points}
        bucket={bucket}
        timeZone={zone}
        days={days}
        label={label}
        annotations={annotations}
        nowMs={Date.now()}
      />
      {createdAt && points.length < all.length && (
        <p className="muted small" data-testid="chart-since">
          From {formatDay(dayIn(Date.parse(createdAt), zone))}, when the site was added.
        </p>
      )}
    </>
  )
}
