/**
 * One session: where the visitor came from and with what, its session replay recording when it has
 * one (the player, with the session's events as timeline markers; admins may delete it), and its
 * events in order with their time from the session's start (pages, custom events, outbound links,
 * errors, web vitals).
 */
import type { SessionEvent, SessionReplay } from '@pathlight/protocol'
import { useMemo, useState } from 'react'
import { ConfirmButton } from '../components/confirm-button'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { ReplayPlayer } from '../components/replay-player'
import { GeoCredit } from '../components/reports/geo-credit'
import { ImportedDaysNote } from '../components/reports/imported-days-note'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { describeEvent, eventTypeLabels, offsetText, propertiesText } from '../lib/event-text'
import { formatBytes, formatDateTime } from '../lib/format'
import { recordingSpan, replayMarkers } from '../lib/replay-markers'
import { formatSeconds } from '../lib/report-format'
import { countryName, languageName } from '../lib/report-labels'
import { sessionDurationSeconds } from '../lib/session-duration'
import { useAction } from '../lib/use-action'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import type { ReportContext } from './report-context'

const LIMIT = 1000
const NO_EVENTS: SessionEvent[] = []

/** The session `sessionId` of the site in `ctx` (its events in the range). */
export function SessionPage({ ctx, sessionId }: { ctx: ReportContext; sessionId: string }) {
  const events = useReport(`session:${sessionId}:${ctx.queryKey}`, () =>
    ctx.reports.sessionEvents(sessionId, { ...ctx.query, filters: [] }, { limit: LIMIT }),
  )
  const replay = useReport(`replay:${ctx.siteId}:${sessionId}`, () => ctx.reports.sessionReplay(sessionId))
  const list = events.data?.data ?? []
  const first = list[0]
  const last = list.at(-1)
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <ImportedDaysNote ctx={ctx} />
      <p>
        <Link to={ctx.link({ name: 'sessions', siteId: String(ctx.siteId) })}>← All sessions</Link>
      </p>
      <FormError error={events.error} />
      {!events.data && events.loading && <Loading />}
      {events.data && !first && <p className="notice">This session has no events in the period.</p>}
      {first && last && (
        <section className="card" aria-labelledby="session-title">
          <h2 id="session-title">Session of {formatDateTime(first.timestamp)}</h2>
          <dl className="facts session-facts">
            <dt>Duration</dt>
            <dd>{formatSeconds(sessionDurationSeconds(first.timestamp, last.timestamp))}</dd>
            <dt>Visitor</dt>
            <dd>
              <code>{first.userId}</code>
            </dd>
            <dt>Location</dt>
            <dd>{[first.city, first.region, countryName(first.country)].filter(Boolean).join(', ')}</dd>
            <dt>Device</dt>
            <dd>{[first.browser, first.operatingSystem, first.deviceType].filter(Boolean).join(' · ')}</dd>
            <dt>Language</dt>
            <dd>{languageName(first.language)}</dd>
            <dt>Source</dt>
            <dd>
              {first.channel}
              {first.referrer && <> · {first.referrer}</>}
            </dd>
          </dl>
          <GeoCredit />
        </section>
      )}
      {replay.data && !replay.loading && (
        <ReplayCard
          key={sessionId}
          ctx={ctx}
          sessionId={sessionId}
          recording={replay.data}
          sessionEvents={events.data ? list : events.error ? NO_EVENTS : undefined}
        />
      )}
      {replay.error && replay.error.status !== 404 && <FormError error={replay.error} />}
      {first && (
        <section className="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Events ({list.length})</h2>
          <ol className="timeline">
            {list.map((event) => (
              <li key={event.eventId} className={`timeline-item timeline-${event.type}`}>
                <span className="timeline-time" title={formatDateTime(event.timestamp)}>
                  {offsetText(first.timestamp, event.timestamp)}
                </span>
                <span className="timeline-type">{eventTypeLabels[event.type]}</span>
                <span className="timeline-what">
                  {describeEvent(event)}
                  {event.type !== 'pageview' && event.pathname && (
                    <span className="muted"> on {event.pathname}</span>
                  )}
                  {event.type === 'custom_event' && Object.keys(event.properties).length > 0 && (
                    <span className="muted small"> ({propertiesText(event.properties)})</span>
                  )}
                </span>
              </li>
            ))}
          </ol>
          {events.data && events.data.meta.total > LIMIT && (
            <p className="muted">
              The first {LIMIT} of {events.data.meta.total} events.
            </p>
          )}
        </section>
      )}
    </div>
  )
}

/**
 * The "Replay" card: the recording's length and size (and whether it is incomplete), the player with
 * `sessionEvents` as markers (once they are loaded), and for admins a confirmed Delete.
 */
function ReplayCard({
  ctx,
  sessionId,
  recording,
  sessionEvents,
}: {
  ctx: ReportContext
  sessionId: string
  recording: SessionReplay
  sessionEvents: SessionEvent[] | undefined
}) {
  const [deleted, setDeleted] = useState(false)
  const action = useAction()
  const markers = useMemo(() => {
    const span = recordingSpan(recording.events)
    return span && sessionEvents ? replayMarkers(sessionEvents, span) : undefined
  }, [recording, sessionEvents])
  const { meta } = recording
  if (deleted) return <p className="notice">The replay of this session was deleted.</p>
  return (
    <section className="card" aria-labelledby="replay-title">
      <div className="card-head">
        <h2 id="replay-title">Replay</h2>
        {ctx.canAdmin && !ctx.shared && (
          <ConfirmButton
            label="Delete replay"
            question="Delete this recording? This cannot be undone."
            confirmLabel="Delete"
            onConfirm={() =>
              action.run(async () => {
                await ctx.reports.deleteSessionReplay(sessionId)
                setDeleted(true)
              })
            }
          />
        )}
      </div>
      <p className="muted">
        {formatSeconds(Math.floor(meta.durationMs / 1000))} recorded · {formatBytes(meta.bytes)} stored
        {meta.truncated && ' · incomplete: the recording reached its size cap or misses a part'}
      </p>
      <FormError error={action.error} />
      {markers ? <ReplayPlayer events={recording.events} markers={markers} /> : <Loading />}
    </section>
  )
}
