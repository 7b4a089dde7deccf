/**
 * The session replay player: rrweb-player, loaded on first use (`replay-player-mount.ts`, its own
 * chunk with its stylesheet), sized to its container's width with the recorded viewport's
 * proportions, following the container's width as it changes. Paused at the start; inactivity is
 * skipped; the session's events are markers on the timeline, with a legend below.
 */
import { useEffect, useRef, useState } from 'react'
import { eventTypeLabels } from '../lib/event-text'
import {
  type MarkerKind,
  markerColors,
  markerTags,
  type ReplayMarker,
  withMarkers,
} from '../lib/replay-markers'
import { playerSize, recordedViewport } from '../lib/replay-size'
import { Loading } from './loading'

export interface ReplayPlayerProps {
  /** The recording: rrweb events in time order (the replay endpoint's `events`). */
  events: readonly { type?: unknown; timestamp: number; data?: unknown }[]
  /** The session's events as timeline markers (`replayMarkers`). */
  markers: readonly ReplayMarker[]
}

/** The frame's tallest height: this share of the window. */
const MAX_HEIGHT_SHARE = 0.7

/** rrweb-player playing `events`, with `markers` on its timeline. */
export function ReplayPlayer({ events, markers }: ReplayPlayerProps) {
  const stage = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading')

  useEffect(() => {
    const target = stage.current
    if (!target) return
    let cancelled = false
    let player: { resize(size: { width: number; height: number }): void; destroy(): void } | undefined
    const viewport = recordedViewport(events)
    const sizeNow = () => playerSize(target.clientWidth, viewport, window.innerHeight * MAX_HEIGHT_SHARE)
    setState('loading')
    import('./replay-player-mount').then(
      ({ mountPlayer }) => {
        if (cancelled) return
        try {
          player = mountPlayer(target, {
            events: withMarkers(events, markers),
            tags: markerTags(markers),
            ...sizeNow(),
          })
          setState('ready')
        } catch {
          target.replaceChildren()
          setState('failed')
        }
      },
      () => {
        if (!cancelled) setState('failed')
      },
    )
    // Only width changes resize the player (its own height changes would otherwise loop).
    let width = target.clientWidth
    const observer = new ResizeObserver(() => {
      if (target.clientWidth === width) return
      width = target.clientWidth
      player?.resize(sizeNow())
    })
    observer.observe(target)
    return () => {
      cancelled = true
      observer.disconnect()
      player?.destroy()
      target.replaceChildren()
    }
  }, [events, markers])

  const kinds = [...new Set(markers.map((m) => m.data.payload.kind))] as MarkerKind[]
  return (
    <div>
      {state === 'loading' && <Loading />}
      {state === 'failed' && (
        <p className="notice notice-error">
          This recording cannot be played (it may lack the page snapshot playback starts from).
        </p>
      )}
      <div ref={stage} className="replay-stage" hidden={state === 'failed'} />
      {state === 'ready' && kinds.length > 0 && (
        <ul className="replay-legend" aria-label="Timeline markers">
          {kinds.map((kind) => (
            <li key={kind}>
              <span className="replay-legend-swatch" style={{ background: markerColors[kind] }} />
              {eventTypeLabels[kind]}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
