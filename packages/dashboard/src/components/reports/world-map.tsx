/**
 * A world map of visitors per country: Natural Earth 1:110m country shapes (world-atlas, ISC; public
 * domain data) drawn as SVG in an equirectangular projection, shaded by visitors, every country with
 * visitors a button that adds a country filter. Loaded lazily (the shapes are most of its chunk), so the
 * initial bundle does not carry it. Country codes: the shapes carry ISO 3166-1 numeric ids, mapped to
 * alpha-2 by `iso-numeric.ts`.
 */
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import world from 'world-atlas/countries-110m.json'
import { alpha2OfNumeric } from '../../lib/iso-numeric'

const WIDTH = 720
const HEIGHT = 330
const TOP = 84 // latitude shown at the top edge (Antarctica is left out)
const BOTTOM = -58

const project = ([lon, lat]: number[]): string =>
  `${(((lon ?? 0) + 180) / 360) * WIDTH},${((TOP - (lat ?? 0)) / (TOP - BOTTOM)) * HEIGHT}`

type Ring = number[][]
type Geometry = { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] }

/**
 * One ring as path commands. A ring that crosses the antimeridian (Russia, Fiji) jumps from +180° to
 * -180°: the jump starts a new sub-path instead of drawing a line across the whole map.
 */
function ringPath(ring: Ring): string {
  let d = ''
  let broken = false
  ring.forEach((point, i) => {
    const previous = ring[i - 1]
    const jump = previous !== undefined && Math.abs((point[0] ?? 0) - (previous[0] ?? 0)) > 180
    if (jump) broken = true
    d += `${i === 0 || jump ? 'M' : 'L'}${project(point)}`
  })
  return broken ? d : `${d}Z`
}

function pathOf(geometry: Geometry): string {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates
  return polygons.map((rings) => rings.map(ringPath).join('')).join('')
}

const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>
const countries = feature(topology, topology.objects.countries).features.flatMap((f) => {
  const code = alpha2OfNumeric(String(f.id))
  if (!code || code === 'AQ' || !f.geometry) return []
  return [{ code, name: f.properties?.name ?? code, d: pathOf(f.geometry as Geometry) }]
})

/** The map; `visitors` by alpha-2 code; `onSelect` receives a code. */
export default function WorldMap({
  visitors,
  onSelect,
  nameOf,
}: {
  visitors: ReadonlyMap<string, number>
  onSelect: (code: string) => void
  nameOf: (code: string) => string
}) {
  const max = Math.max(1, ...visitors.values())
  return (
    <svg className="world-map" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Visitors by country">
      {countries.map((c) => {
        const count = visitors.get(c.code) ?? 0
        const label = `${nameOf(c.code)}: ${count} visitor${count === 1 ? '' : 's'}`
        return count === 0 ? (
          <path key={c.code + c.d.length} d={c.d} className="world-map-country">
            <title>{label}</title>
          </path>
        ) : (
          // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a <button>
          <path
            key={c.code + c.d.length}
            d={c.d}
            className="world-map-country has-visitors"
            style={{ fillOpacity: 0.25 + 0.75 * (count / max) }}
            role="button"
            tabIndex={0}
            aria-label={`${label}. Filter by this country`}
            onClick={() => onSelect(c.code)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault()
                onSelect(c.code)
              }
            }}
          >
            <title>{label}</title>
          </path>
        )
      })}
    </svg>
  )
}
