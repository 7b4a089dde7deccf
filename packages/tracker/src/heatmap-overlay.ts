/**
 * The heatmap drawn over the live page, for a signed viewing link (`#pathlight-heatmap=<token>`): fetches
 * the heatmap of the token's page and period from `GET /api/heatmap-view?token=...` (next to the script),
 * finds each recorded element by its selector path at the viewer's own width and layout, and draws a dot
 * per position bin of it (the bin's centre inside the element's current box, sized and tinted by its
 * clicks): red for rage clicks, grey-ringed for dead clicks. Elements that are not on the page (or not
 * rendered: no box) are listed with their counts in a small panel instead of being drawn somewhere
 * wrong. Redrawn on resize. Marks carry `data-pathlight-heatmap-mark` (`click`, `rage` or `dead`) and
 * their selector in `data-selector`, so the drawing can be checked.
 */

/** One element of the heatmap, as `GET /api/heatmap-view` answers it. */
export interface OverlayElement {
  selector: string
  clicks: number
  rage_clicks: number
  dead_clicks: number
  /** Position bins: `x`, `y` from 0 to `grid - 1` over the element's box, from its left and top. */
  bins: { x: number; y: number; clicks: number; rage_clicks: number; dead_clicks: number }[]
}

/** The heatmap the overlay draws. */
export interface OverlayHeatmap {
  grid: number
  total_clicks: number
  elements: OverlayElement[]
}

const ROOT_ID = 'pathlight-heatmap-overlay'

/** Draw `heatmap` over the page (replacing a previous drawing). */
export function drawHeatmap(heatmap: OverlayHeatmap): void {
  document.getElementById(ROOT_ID)?.remove()
  const root = document.createElement('div')
  root.id = ROOT_ID
  root.setAttribute('data-pathlight-block', '')
  root.style.cssText =
    'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none'
  const max = Math.max(1, ...heatmap.elements.flatMap((e) => e.bins.map((b) => b.clicks)))
  const missing: OverlayElement[] = []
  for (const element of heatmap.elements) {
    let found: Element | null = null
    try {
      found = document.querySelector(element.selector)
    } catch {
      found = null
    }
    const box = found?.getBoundingClientRect()
    if (!box || (box.width === 0 && box.height === 0)) {
      missing.push(element)
      continue
    }
    for (const bin of element.bins) {
      const mark = document.createElement('div')
      const kind = bin.rage_clicks > 0 ? 'rage' : bin.dead_clicks > 0 ? 'dead' : 'click'
      const size = 10 + Math.round((bin.clicks / max) * 14)
      const cx = scrollX + box.left + ((bin.x + 0.5) / heatmap.grid) * box.width
      const cy = scrollY + box.top + ((bin.y + 0.5) / heatmap.grid) * box.height
      mark.setAttribute('data-pathlight-heatmap-mark', kind)
      mark.setAttribute('data-selector', element.selector)
      mark.title = `${bin.clicks} clicks${bin.rage_clicks ? `, ${bin.rage_clicks} rage` : ''}${bin.dead_clicks ? `, ${bin.dead_clicks} dead` : ''}`
      const colour = kind === 'rage' ? '220,38,38' : kind === 'dead' ? '107,114,128' : '249,115,22'
      mark.style.cssText =
        `position:absolute;left:${cx - size / 2}px;top:${cy - size / 2}px;width:${size}px;height:${size}px;` +
        `border-radius:50%;background:rgba(${colour},${0.35 + 0.5 * (bin.clicks / max)});` +
        (kind === 'dead' ? 'outline:2px dashed #111827;' : '')
      root.appendChild(mark)
    }
  }
  const panel = document.createElement('div')
  panel.setAttribute('data-pathlight-heatmap-panel', '')
  panel.style.cssText =
    'position:fixed;right:8px;bottom:8px;max-width:320px;max-height:40vh;overflow:auto;padding:8px;' +
    'background:#fff;color:#111827;font:12px/1.4 system-ui,sans-serif;border:1px solid #d1d5db;' +
    'border-radius:6px;pointer-events:auto;box-shadow:0 2px 8px rgba(0,0,0,.15)'
  const title = document.createElement('strong')
  title.textContent = `Heatmap: ${heatmap.total_clicks} clicks`
  panel.appendChild(title)
  if (missing.length > 0) {
    const note = document.createElement('div')
    note.textContent = `Not on this page (${missing.length}):`
    panel.appendChild(note)
    const list = document.createElement('ul')
    list.style.cssText = 'margin:4px 0 0;padding-left:16px'
    for (const element of missing) {
      const item = document.createElement('li')
      item.setAttribute('data-pathlight-heatmap-missing', element.selector)
      item.textContent = `${element.selector}: ${element.clicks} clicks`
      list.appendChild(item)
    }
    panel.appendChild(list)
  }
  root.appendChild(panel)
  document.body.appendChild(root)
}

/** Fetch the heatmap of the viewing token `token` from `url` and draw it, again on every resize. */
export async function showHeatmap(url: string, token: string): Promise<void> {
  const response = await fetch(`${url}?token=${encodeURIComponent(token)}`, { credentials: 'omit' })
  const body = (await response.json()) as { data?: OverlayHeatmap; error?: string }
  if (!body.data) throw new Error(body.error || 'heatmap unavailable')
  const heatmap = body.data
  drawHeatmap(heatmap)
  let pending: ReturnType<typeof setTimeout> | undefined
  addEventListener('resize', () => {
    clearTimeout(pending)
    pending = setTimeout(() => drawHeatmap(heatmap), 100)
  })
}
