/**
 * The journeys Sankey chart (loaded on demand): one column per step, node height and band width
 * proportional to sessions. A node is a button: choosing it (click, Enter or Space) calls
 * `onChoose(pathname)`. The same figures are in the journeys table beside it, for screen readers.
 */
import type { JourneyLink, JourneyPath } from '@pathlight/protocol'
import { useId } from 'react'
import { formatCount } from '../../lib/report-format'
import { sankeyLayout } from '../../lib/sankey-layout'

const WIDTH = 960
const HEIGHT = 420
const LABEL_ROOM = 150
const NODE_WIDTH = 12
const MAX_LABEL = 22

const short = (text: string) => (text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text)

/** The Sankey of `paths` and `links`; `onChoose` gets a clicked node's pathname. */
export default function JourneySankey({
  paths,
  links,
  onChoose,
}: {
  paths: JourneyPath[]
  links: JourneyLink[]
  onChoose(pathname: string): void
}) {
  const titleId = useId()
  const layout = sankeyLayout(paths, links, {
    width: WIDTH - LABEL_ROOM,
    height: HEIGHT,
    nodeWidth: NODE_WIDTH,
    gap: 8,
  })
  return (
    <svg className="sankey" viewBox={`-2 -2 ${WIDTH + 4} ${HEIGHT + 4}`} aria-labelledby={titleId}>
      <title id={titleId}>
        Journeys as a flow from step to step; the table below lists the same journeys
      </title>
      <g className="sankey-bands">
        {layout.bands.map((band) => (
          <path key={`${band.from.id}>${band.to.id}`} d={band.d} strokeWidth={Math.max(band.width, 1)}>
            <title>
              {`${band.from.pathname} → ${band.to.pathname}: ${formatCount(band.sessions)} sessions`}
            </title>
          </path>
        ))}
      </g>
      {layout.nodes.map((node) => {
        const label = `Step ${node.step}: ${node.pathname}, ${formatCount(node.sessions)} sessions. Start journeys here`
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>
          <g
            key={node.id}
            className="sankey-node"
            role="button"
            tabIndex={0}
            aria-label={label}
            data-pathname={node.pathname}
            data-step={node.step}
            onClick={() => onChoose(node.pathname)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault()
                onChoose(node.pathname)
              }
            }}
          >
            <title>{label}</title>
            <rect x={node.x} y={node.y} width={NODE_WIDTH} height={node.height} rx={2} />
            <text x={node.x + NODE_WIDTH + 6} y={node.y + node.height / 2} dy="0.35em">
              {short(node.pathname)} <tspan className="sankey-count">{formatCount(node.sessions)}</tspan>
            </text>
          </g>
        )
      })}
    </svg>
  )
}
