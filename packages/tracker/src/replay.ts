/**
 * Entry of the session replay chunk (`/api/script-replay.js`), loaded by the core script only on sites
 * with `sessionReplay` on and a `replaySampleRate` above 0, and only for visitors who did not opt out
 * (checked again here). The core hands over its script tag and the site's config as
 * `window.pathlight._r`; see `start-recorder.ts` for what is recorded and how it is sent.
 */
import { isOptedOut } from './is-opted-out.js'
import { replayOptionsOf } from './replay-options.js'
import { startRecorder } from './start-recorder.js'

const handoff = window.pathlight?._r
if (handoff && !isOptedOut(handoff.script)) startRecorder(replayOptionsOf(handoff))
