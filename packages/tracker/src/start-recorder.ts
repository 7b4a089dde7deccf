/**
 * The session replay recorder: rrweb's `record` with privacy defaults, its events batched in the page
 * and sent to `POST /api/replay`, continuing the visitor's recording across page loads (`replay-state.ts`).
 */
import { record } from 'rrweb'
import { recordedUrl } from './recorded-url.js'
import { BEACON_MAX_BYTES, batchJson, splitEvents, utf8Length } from './replay-batch.js'
import type { ReplayStore } from './replay-state.js'
import { SESSION_GAP_MS } from './replay-state.js'
import { beaconBatch, postBatch } from './send-replay-batch.js'

/** Pending events are sent this often, in ms. */
export const FLUSH_INTERVAL_MS = 5000
/** Pending events are sent early once their JSON grows past this many characters (the server takes 1 MB). */
export const FLUSH_CHARS = 500_000

/**
 * What the recorder records: never the value of an input (`maskAllInputs`), nothing of password fields
 * and `[data-pathlight-block]` elements (an empty placeholder of the same size), text inside
 * `[data-pathlight-mask]` as asterisks. No canvas, fonts or images as data; scripts, comments and head
 * metadata are left out (`slimDOMOptions`).
 */
export const RECORD_OPTIONS = {
  maskAllInputs: true,
  blockSelector: 'input[type="password"],[data-pathlight-block]',
  maskTextSelector: '[data-pathlight-mask]',
  recordCanvas: false,
  collectFonts: false,
  inlineImages: false,
  slimDOMOptions: 'all',
  sampling: { scroll: 150, media: 800, input: 'last' },
} as const

export interface RecorderOptions {
  /** The site id of the script tag, sent as `site_id`. */
  siteId: string
  /** The absolute URL of `POST /api/replay`. */
  url: string
  /** The site's `trackUrlParams`: when false, page URLs are recorded without their query string. */
  trackUrlParams: boolean
  /** The script's `data-hash-mode`: when false, page URLs are recorded without their fragment. */
  hashMode: boolean
  /** The longest a session's recording runs, in ms from its start; then recording stops. */
  maxMs: number
  /** The visitor's recording state. */
  store: ReplayStore
}

/** Reasons (`recorded:false`) and statuses after which this page sends no more. */
const refusedStatuses = [400, 403, 404]

/**
 * Start recording this page, unless the visitor's recording is stopped or over its length. Events go
 * out every 5 s (earlier past 500 K characters) gzipped with `fetch`, and as JSON beacons when the page
 * is hidden or left. Any `recorded:false` answer (not sampled, replay off, over the session's cap,
 * excluded) stops recording for the rest of the session; a 400, 403 or 404 for this page. A failed
 * send (network, 413, 5xx) loses that batch only. Never throws.
 */
export function startRecorder({
  siteId,
  url,
  trackUrlParams,
  hashMode,
  maxMs,
  store,
}: RecorderOptions): void {
  const keepOfUrls = { query: trackUrlParams, fragment: hashMode }
  let now = Date.now()
  let state = store.update(now, { lastSentAt: now })
  if (state.stopped || now - state.startedAt >= maxMs) {
    store.update(now, { stopped: true })
    return
  }
  let pending: string[] = []
  let pendingChars = 0
  let lastSentAt = now
  let stopped = false
  let stopRecord: (() => void) | undefined

  const stop = (forSession: boolean) => {
    if (stopped) return
    stopped = true
    pending = []
    clearInterval(timer)
    if (stopRecord) stopRecord()
    if (forSession) store.update(Date.now(), { stopped: true })
  }

  const flush = (leaving: boolean) => {
    if (stopped || pending.length === 0) return
    const events = pending
    pending = []
    pendingChars = 0
    for (const group of leaving ? splitEvents(events, BEACON_MAX_BYTES) : [events]) {
      lastSentAt = Date.now()
      const claimed = store.claim(lastSentAt)
      if (claimed.stopped) return stop(false)
      const json = batchJson(siteId, claimed.sequence, group)
      if (leaving) beaconBatch(url, json, utf8Length(json) > BEACON_MAX_BYTES)
      else postBatch(url, json).then((answer) => answer && onAnswer(answer.status, answer.body.recorded))
    }
  }

  const onAnswer = (status: number, recorded: boolean | undefined) => {
    if (status === 200 && recorded === false) stop(true)
    else if (refusedStatuses.indexOf(status) >= 0) stop(false)
  }

  const timer = setInterval(() => flush(false), FLUSH_INTERVAL_MS)
  const leave = () => flush(true)
  addEventListener('pagehide', leave)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leave()
  })

  stopRecord = record({
    ...RECORD_OPTIONS,
    emit(event) {
      if (stopped) return
      now = Date.now()
      // A tab idle for longer than a server session: the next batches may open a new session, which
      // needs its own full snapshot (the state starts over unless another tab kept the session alive).
      if (now - lastSentAt > SESSION_GAP_MS) {
        lastSentAt = now
        pending = []
        pendingChars = 0
        state = store.read(now)
        record.takeFullSnapshot(true)
        return
      }
      if (now - state.startedAt >= maxMs) {
        flush(false)
        return stop(true)
      }
      if (event.type === 4) event.data.href = recordedUrl(event.data.href, keepOfUrls)
      const json = JSON.stringify(event)
      pending.push(json)
      pendingChars += json.length + 1
      if (pendingChars > FLUSH_CHARS) flush(false)
    },
    errorHandler: () => true,
  })
}
