/**
 * rrweb-player and its stylesheet, in a module of their own: `ReplayPlayer` imports it dynamically, so
 * Vite puts the player (rrweb's replayer and Svelte, the dashboard's largest chunk: bench/README.md
 * "replay") and its CSS in a chunk loaded only when a recording is shown. Nothing else may import this module statically.
 */
import Player from 'rrweb-player'
import 'rrweb-player/dist/style.css'
import { neutralizeReplayUrls } from '../lib/replay-urls'

/** The events rrweb-player takes (rrweb's `eventWithTime`). */
type PlayerEvents = ConstructorParameters<typeof Player>[0]['props']['events']

/**
 * The Svelte component methods of a player. rrweb-player's typings extend `SvelteComponent` from
 * `svelte`, which is not installed (the player ships compiled), so these are not typed there.
 */
interface SvelteMethods {
  $set(props: { width: number; height: number }): void
  $destroy(): void
}

/** A mounted player: resize it, take it down. */
export interface MountedPlayer {
  resize(size: { width: number; height: number }): void
  destroy(): void
}

/**
 * Mount rrweb-player in `target`: paused at the start (`autoPlay: false`), inactivity skipped
 * (`skipInactive: true`), with its controller; custom events whose tag is in `tags` are drawn as
 * markers of that colour on the timeline. The events' URLs are made inert first, in place
 * (`neutralizeReplayUrls`): the rebuilt page may fetch nothing from this origin.
 * @param events rrweb events in time order, as the recorder sent them (the server stores them
 *   unchanged; rrweb checks nothing more)
 * @param size the frame in CSS pixels (the controller adds its own 80 px below)
 * @throws when rrweb cannot build a replayer of `events` (e.g. no full snapshot)
 */
export function mountPlayer(
  target: HTMLElement,
  {
    events,
    tags,
    width,
    height,
  }: {
    events: readonly { timestamp: number }[]
    tags: Record<string, string>
    width: number
    height: number
  },
): MountedPlayer {
  const player = new Player({
    target,
    props: {
      events: neutralizeReplayUrls(events) as unknown as PlayerEvents,
      width,
      height,
      autoPlay: false,
      skipInactive: true,
      showController: true,
      tags,
    },
  })
  const component = player as unknown as SvelteMethods
  return {
    resize(size) {
      component.$set(size)
      player.triggerResize()
    },
    destroy() {
      component.$destroy()
    },
  }
}
