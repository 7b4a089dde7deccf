/**
 * A time series as an SVG line chart of our own (no chart library): a y axis from 0 with rounded
 * ticks, up to six time labels in the report's zone, a tooltip (`<title>`) per bucket, and the same
 * figures as a table for screen readers and copying. With compared points, their series is a dashed
 * line on the same axis (bucket by bucket: the compared range's first bucket under the first); with
 * annotations, a marker on the bucket of each annotated day shows its text on hover or focus. With
 * `nowMs`, buckets still to come keep their place on the axis (and the compared series its line) but
 * draw no point or line: the figure's line ends at the bucket holding now.
 */
import type { SeriesBucket } from '@pathlight/protocol'
import { useId } from 'react'
import { type ChartAnnotation, placeAnnotations } from '../../lib/chart-annotations'
import { elapsedBuckets } from '../../lib/chart-end'
import { areaPath, labelIndexes, linePath, niceTicks, plotPoints } from '../../lib/chart-scale'
import { formatCount } from '../../lib/report-format'

export interface ChartPoint {
  /** Start of the bucket, ISO 8601. */
  time: string
  value: number
  /** The compared range's bucket at this position (null past its end; absent: no comparison). */
  previous?: { time: string; value: number } | null
}

const WIDTH = 960
const HEIGHT = 240
const MARGIN = { top: 12, right: 16, bottom: 28, left: 48 }

/** How a bucket's start is labelled on the axis and in tooltips. */
function timeFormats(bucket: SeriesBucket, timeZone: string, days: number) {
  const make = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(undefined, { ...options, timeZone })
  if (bucket === 'hour') {
    const tick =
      days > 1
        ? make({ day: 'numeric', month: 'short', hour: '2-digit' })
        : make({ hour: '2-digit', minute: '2-digit' })
    return { tick, full: make({ dateStyle: 'medium', timeStyle: 'short' }) }
  }
  if (bucket === 'month') {
    const month = make({ month: 'short', year: 'numeric' })
    return { tick: month, full: month }
  }
  const day = make({ day: 'numeric', month: 'short' })
  return { tick: day, full: make({ dateStyle: 'medium' }) }
}

/** The chart of `points` (oldest first), `label` naming the figure ('Visitors'). */
export function TimeSeriesChart({
  points,
  bucket,
  timeZone,
  days,
  label,
  annotations = [],
  nowMs,
}: {
  points: ChartPoint[]
  /** The present (epoch ms): later buckets are still to come. Absent: every bucket is drawn. */
  nowMs?: number
  bucket: SeriesBucket
  timeZone: string
  days: number
  label: string
  /** Notes on days of the range, marked on their buckets. */
  annotations?: readonly ChartAnnotation[]
}) {
  const titleId = useId()
  const width = WIDTH - MARGIN.left - MARGIN.right
  const height = HEIGHT - MARGIN.top - MARGIN.bottom
  const values = points.map((p) => p.value)
  // The compared series up to its last bucket (a shorter compared range ends early).
  const compared = points.some((p) => p.previous !== undefined)
  const previousValues = points.flatMap((p) => (p.previous ? [p.previous.value] : []))
  const ticks = niceTicks(Math.max(0, ...values, ...previousValues))
  const top = ticks.at(-1) ?? 1
  // The figure's line up to the bucket holding now; the axis keeps the whole range.
  const elapsed =
    nowMs === undefined
      ? points.length
      : elapsedBuckets(
          points.map((p) => p.time),
          nowMs,
        )
  const plotted = plotPoints(values, width, height, top)
  const drawn = plotted.slice(0, elapsed)
  const previousPlotted = plotPoints(
    points.map((p) => p.previous?.value ?? 0),
    width,
    height,
    top,
  ).slice(0, previousValues.length)
  const marks = placeAnnotations(
    points.map((p) => p.time),
    annotations,
    timeZone,
  )
  const formats = timeFormats(bucket, timeZone, days)
  const total = values.reduce((a, b) => a + b, 0)
  const peak = points.reduce<ChartPoint | undefined>(
    (best, p) => (!best || p.value > best.value ? p : best),
    undefined,
  )
  const when = (time: string) => formats.full.format(new Date(time))
  const summary = peak
    ? `${label} per ${bucket}: ${formatCount(total)} in all, at most ${formatCount(peak.value)} (${when(peak.time)})`
    : `${label}: no data`
  const column = points.length > 0 ? width / Math.max(points.length - 1, 1) : width
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} className="chart-svg">
        <title id={titleId}>{summary}</title>
        <g transform={`translate(${MARGIN.left} ${MARGIN.top})`}>
          {ticks.map((tick) => {
            const y = height - (tick / top) * height
            return (
              <g key={tick} className="chart-grid">
                <line x1={0} x2={width} y1={y} y2={y} />
                <text x={-8} y={y} dy="0.32em" textAnchor="end">
                  {formatCount(tick, true)}
                </text>
              </g>
            )
          })}
          {labelIndexes(points.length, 6).map((i) => {
            const point = plotted[i]
            const time = points[i]?.time
            if (!point || !time) return null
            const anchor =
              points.length > 1 && i === 0
                ? 'start'
                : i === points.length - 1 && points.length > 1
                  ? 'end'
                  : 'middle'
            return (
              <text key={time} className="chart-axis" x={point.x} y={height + 20} textAnchor={anchor}>
                {formats.tick.format(new Date(time))}
              </text>
            )
          })}
          {drawn.length > 0 && <path className="chart-area" d={areaPath(drawn, height)} />}
          {drawn.length > 0 && <path className="chart-line" d={linePath(drawn)} />}
          {previousPlotted.length > 0 && (
            <path
              className="chart-line-previous"
              d={linePath(previousPlotted)}
              data-testid="chart-previous"
            />
          )}
          {plotted.map((point, i) => {
            const p = points[i]
            if (!p) return null
            const toCome = i >= elapsed
            return (
              <g key={p.time} className={toCome ? 'chart-point chart-point-to-come' : 'chart-point'}>
                <rect x={point.x - column / 2} y={0} width={column} height={height} className="chart-hit">
                  <title>
                    {`${when(p.time)}: ${toCome ? 'still to come' : `${formatCount(p.value)} ${label.toLowerCase()}`}` +
                      (p.previous ? `; ${when(p.previous.time)}: ${formatCount(p.previous.value)}` : '')}
                  </title>
                </rect>
                {points.length <= 62 && !toCome && <circle cx={point.x} cy={point.y} r={3} />}
              </g>
            )
          })}
          {marks.map(({ index, annotations: notes }) => {
            const point = plotted[index]
            if (!point) return null
            const text = notes.map((n) => `${n.date}: ${n.text}`).join('\n')
            return (
              <g
                key={index}
                className="chart-annotation"
                tabIndex={0}
                aria-label={text}
                data-testid="chart-annotation"
              >
                <line x1={point.x} x2={point.x} y1={0} y2={height} />
                <circle cx={point.x} cy={4} r={5} />
                <title>{text}</title>
                <text
                  className="chart-annotation-text"
                  x={point.x}
                  y={-2}
                  textAnchor={point.x > width / 2 ? 'end' : 'start'}
                  dx={point.x > width / 2 ? -8 : 8}
                  dy={10}
                >
                  {notes.map((n) => n.text).join(' · ')}
                </text>
              </g>
            )
          })}
        </g>
      </svg>
      <details className="chart-table">
        <summary>Show as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">
                {bucket === 'hour'
                  ? 'Hour'
                  : bucket === 'month'
                    ? 'Month'
                    : bucket === 'week'
                      ? 'Week of'
                      : 'Day'}
              </th>
              <th scope="col">{label}</th>
              {compared && <th scope="col">Compared</th>}
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={p.time}>
                <td>{formats.full.format(new Date(p.time))}</td>
                <td>{i < elapsed ? formatCount(p.value) : ''}</td>
                {compared && <td>{p.previous ? formatCount(p.previous.value) : ''}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
