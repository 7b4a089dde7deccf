/**
 * Every event of the range (after filters), newest first, 50 at a time ("Older" follows the server's
 * cursor, so no event is skipped or repeated while new ones arrive); optionally one type only.
 */
import type { EventType } from '@pathlight/protocol'
import { useState } from 'react'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { GeoCredit } from '../components/reports/geo-credit'
import { PathText } from '../components/reports/path-text'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { describeEvent, eventTypeLabels } from '../lib/event-text'
import { formatDateTime } from '../lib/format'
import { countryName } from '../lib/report-labels'
import { useReport } from '../lib/use-report'
import { Link } from '../router/link'
import type { ReportContext } from './report-context'

const PAGE_SIZE = 50

/** The events of the site in `ctx`. */
export function EventsPage({ ctx }: { ctx: ReportContext }) {
  const [type, setType] = useState<EventType | ''>('')
  /** Cursors of the pages shown before the current one (the first page has none). */
  const [cursors, setCursors] = useState<string[]>([])
  const cursor = cursors.at(-1)
  const events = useReport(`events:${type}:${cursor ?? ''}:${ctx.queryKey}`, () =>
    ctx.reports.events(ctx.query, { type: type || undefined, cursor, limit: PAGE_SIZE }),
  )
  const siteId = String(ctx.siteId)
  const list = events.data?.data ?? []
  const next = events.data?.meta.nextCursor
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <p>
        <Link to={ctx.link({ name: 'sessions', siteId })}>← Sessions</Link>
      </p>
      <section className="card" aria-labelledby="events-title" aria-busy={events.loading}>
        <div className="card-head">
          <h2 id="events-title">Events</h2>
          <label className="inline-field">
            <span>Type</span>
            <select
              value={type}
              onChange={(e) => {
                setType(e.target.value as EventType | '')
                setCursors([])
              }}
            >
              <option value="">All types</option>
              {(Object.keys(eventTypeLabels) as EventType[]).map((t) => (
                <option key={t} value={t}>
                  {eventTypeLabels[t]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <FormError error={events.error} />
        {!events.data && events.loading && <Loading />}
        {events.data && list.length === 0 && <p className="muted">No events.</p>}
        {list.length > 0 && (
          <div className="table-wrap">
            <table className="report-table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Type</th>
                  <th scope="col">What</th>
                  <th scope="col">Page</th>
                  <th scope="col">Country</th>
                </tr>
              </thead>
              <tbody>
                {list.map((event) => (
                  <tr key={event.eventId}>
                    <td>
                      <Link to={ctx.link({ name: 'session', siteId, sessionId: event.sessionId })}>
                        {formatDateTime(event.timestamp)}
                      </Link>
                    </td>
                    <td>{eventTypeLabels[event.type]}</td>
                    <td className="path-cell">{describeEvent(event)}</td>
                    <td className="path-cell">
                      <PathText path={event.pathname} />
                    </td>
                    <td>{countryName(event.country)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav className="pager" aria-label="Pages">
          {cursors.length > 0 ? (
            <button type="button" className="link-button" onClick={() => setCursors((c) => c.slice(0, -1))}>
              ← Newer
            </button>
          ) : (
            <span />
          )}
          {next ? (
            <button type="button" className="link-button" onClick={() => setCursors((c) => [...c, next])}>
              Older →
            </button>
          ) : (
            <span />
          )}
        </nav>
        <GeoCredit />
      </section>
    </div>
  )
}
