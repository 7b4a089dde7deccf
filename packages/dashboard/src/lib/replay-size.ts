/**
 * The size of the replay player in its card: the card's width, and the height that keeps the
 * recorded viewport's proportions (from rrweb's Meta events, type 4 `{data: {width, height}}`),
 * bounded so a tall phone recording does not push the controls off screen.
 */

/** rrweb's `EventType.Meta`. */
export const RRWEB_META_EVENT = 4

/** Proportions used when the recording carries no usable Meta event (16:10). */
const DEFAULT_RATIO = 10 / 16

/** The largest recorded viewport of `events` (width/height in CSS pixels), or null. */
export function recordedViewport(
  events: readonly { type?: unknown; data?: unknown }[],
): { width: number; height: number } | null {
  let best: { width: number; height: number } | null = null
  for (const event of events) {
    if (event.type !== RRWEB_META_EVENT || typeof event.data !== 'object' || event.data === null) continue
    const { width, height } = event.data as { width?: unknown; height?: unknown }
    if (typeof width !== 'number' || typeof height !== 'number' || width <= 0 || height <= 0) continue
    if (!best || width * height > best.width * best.height) best = { width, height }
  }
  return best
}

/**
 * The player's frame size in CSS pixels (whole numbers).
 * @param available the card's content width
 * @param maxHeight the tallest frame allowed (e.g. 70% of the window)
 */
export function playerSize(
  available: number,
  viewport: { width: number; height: number } | null,
  maxHeight: number,
): { width: number; height: number } {
  const width = Math.max(200, Math.floor(available))
  const ratio = viewport ? viewport.height / viewport.width : DEFAULT_RATIO
  const height = Math.max(150, Math.min(Math.floor(width * ratio), Math.floor(maxHeight)))
  return { width, height }
}
