/** A small line of counts over time (an error's occurrences), for lists; the numbers are in its label. */
import { linePath, niceTicks, plotPoints } from '../../lib/chart-scale'

const WIDTH = 120
const HEIGHT = 28

/** `values` oldest first; `label` says what they count ('Occurrences per day'). */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const top = niceTicks(Math.max(0, ...values), 1).at(-1) ?? 1
  const points = plotPoints(values, WIDTH - 4, HEIGHT - 4, top).map((p) => ({ x: p.x + 2, y: p.y + 2 }))
  return (
    <svg
      className="sparkline"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={`${label}: ${values.join(', ')}`}
    >
      <path d={linePath(points)} />
    </svg>
  )
}
