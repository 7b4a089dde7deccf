/** The arithmetic of the dashboard's SVG charts: a rounded axis and the points of a series. */
import { nice, ticks } from 'd3-array'

/**
 * A y axis from 0 that holds `max`: d3-array's nice ticks (1, 2 or 5 times a power of ten) for about `count`
 * steps, whole numbers only (counts never get fractional ticks: a series peaking at 2 gets 0, 1, 2),
 * the last one at or above `max`; an all-zero series gets 0 and 1.
 */
export function niceTicks(max: number, count = 4): number[] {
  // The domain ends on a whole number, so the nice top is a whole number and survives the filter.
  const [, top] = nice(0, Math.max(1, Math.ceil(max)), count)
  return ticks(0, top, count).filter(Number.isInteger)
}

/** A point of a plotted series, in SVG user units. */
export interface PlotPoint {
  x: number
  y: number
}

/**
 * The positions of `values` in a plot area of `width` x `height` (origin top left) against an axis
 * from 0 to `top`: evenly spaced across the width (one value: in the middle).
 */
export function plotPoints(
  values: readonly number[],
  width: number,
  height: number,
  top: number,
): PlotPoint[] {
  const step = values.length > 1 ? width / (values.length - 1) : 0
  return values.map((value, i) => ({
    x: values.length > 1 ? i * step : width / 2,
    y: top > 0 ? height - (value / top) * height : height,
  }))
}

/** An SVG path through the points ('M x y L x y ...'), coordinates rounded to 0.1. */
export function linePath(points: readonly PlotPoint[]): string {
  return points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${Math.round(p.x * 10) / 10} ${Math.round(p.y * 10) / 10}`)
    .join(' ')
}

/** The path of the area under the line, closed along the bottom edge at `height`. */
export function areaPath(points: readonly PlotPoint[], height: number): string {
  const first = points[0]
  const last = points.at(-1)
  if (!first || !last) return ''
  const x = (p: PlotPoint) => Math.round(p.x * 10) / 10
  return `${linePath(points)} L${x(last)} ${height} L${x(first)} ${height} Z`
}

/** At most `max` evenly spread indexes of `count` items, the first and last included. */
export function labelIndexes(count: number, max: number): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i)
  const step = (count - 1) / (max - 1)
  return [...new Set(Array.from({ length: max }, (_, i) => Math.round(i * step)))]
}
