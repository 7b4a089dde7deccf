/**
 * One identified user (members only): traits with their values and when each changed; first and last
 * seen, sessions, pageviews, events, last country and device; and the timeline of their latest
 * sessions, newest first, each with its events (newest first), a link to the session's page and, when
 * it has a recording, to its replay (on the same page).
 */
import type { UserDetail } from '@pathlight/protocol'
import { api } from '../api/api'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { eventTypeLabels } from '../lib/event-text'
import { formatDateTime } from '../lib/format'
import { formatCount } from '../lib/report-format'
import { countryName } from '../lib/report-labels'
import { useResource } from '../lib/use-resource'
import { sessionLink, traitText } from '../lib/user-text'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { SiteContext } from './site-scope'

/** An event of the timeline and a key unique in it (events carry no id: their fields, and a count). */
type TimelineEvent = UserDetail['recentEvents'][number] & { key: string }

/** The page of user `userId` of the site in scope (a notice when the site has no such user). */
export function UserPage({ site, userId }: { site: SiteContext['site']; userId: string }) {
  const siteId = String(site.siteId)
  const user = useResource(`user:${siteId}:${userId}`, () => api.user(site.siteId, userId))
  const data = user.data
  return (
    <div className="stack">
      <p>
        <Link to={routePath({ name: 'users', siteId })}>← All users</Link>
      </p>
      {user.error?.status === 404 ? (
        <p className="notice">This site has no identified user “{userId}”.</p>
      ) : (
        <FormError error={user.error} />
      )}
      {!data && user.loading && <Loading />}
      {data && <UserFacts user={data} />}
      {data && <UserTraits user={data} />}
      {data && <UserTimeline siteId={siteId} user={data} />}
    </div>
  )
}

function UserFacts({ user }: { user: UserDetail }) {
  return (
    <section className="card" aria-labelledby="user-title">
      <h2 id="user-title">
        User <code>{user.userId}</code>
      </h2>
      <dl className="facts session-facts" aria-label="Figures">
        <dt>First seen</dt>
        <dd>{formatDateTime(user.firstSeen)}</dd>
        <dt>Last seen</dt>
        <dd>{formatDateTime(user.lastSeen)}</dd>
        <dt>Sessions</dt>
        <dd data-figure="sessions">{formatCount(user.sessions)}</dd>
        <dt>Pageviews</dt>
        <dd data-figure="pageviews">{formatCount(user.pageviews)}</dd>
        <dt>Events</dt>
        <dd data-figure="events">{formatCount(user.events)}</dd>
        <dt>Last country</dt>
        <dd>{user.lastCountry ? countryName(user.lastCountry) : '–'}</dd>
        <dt>Last device</dt>
        <dd>{user.lastDevice || '–'}</dd>
        <dt>Identified</dt>
        <dd>{formatDateTime(user.identifiedAt)}</dd>
      </dl>
    </section>
  )
}

function UserTraits({ user }: { user: UserDetail }) {
  const traits = Object.entries(user.traitHistory).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return (
    <section className="card" aria-labelledby="traits-title">
      <h2 id="traits-title">Traits</h2>
      {traits.length === 0 ? (
        <p className="muted">No traits: send them with identify.</p>
      ) : (
        <table className="report-table" aria-label="Traits">
          <thead>
            <tr>
              <th scope="col">Trait</th>
              <th scope="col">Value</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {traits.map(([key, trait]) => (
              <tr key={key} data-trait={key}>
                <th scope="row">{key}</th>
                <td>{traitText(trait.value)}</td>
                <td>{formatDateTime(trait.changedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function UserTimeline({ siteId, user }: { siteId: string; user: UserDetail }) {
  const bySession = new Map<string, TimelineEvent[]>()
  const seen = new Map<string, number>()
  for (const event of user.recentEvents) {
    const list = bySession.get(event.sessionId) ?? []
    const fields = `${event.timestamp}|${event.type}|${event.eventName}|${event.pathname}`
    const count = (seen.get(fields) ?? 0) + 1
    seen.set(fields, count)
    list.push({ ...event, key: `${fields}|${count}` })
    bySession.set(event.sessionId, list)
  }
  return (
    <section className="card" aria-labelledby="user-timeline-title">
      <h2 id="user-timeline-title">Timeline</h2>
      <p className="muted">
        Sessions and their events, newest first (the latest 50 sessions and 200 events).
      </p>
      {user.recentSessions.length === 0 && <p className="muted">No sessions yet.</p>}
      <ol className="user-sessions">
        {user.recentSessions.map((session) => {
          const link = sessionLink(siteId, session.sessionId, session.start, session.end)
          const when = formatDateTime(session.start)
          return (
            <li key={session.sessionId} data-session={session.sessionId}>
              <p>
                <Link to={link}>Session of {when}</Link>
                {session.hasReplay && (
                  <>
                    {' '}
                    <Link
                      className="replay-badge"
                      to={link}
                      aria-label={`Watch the replay of the session of ${when}`}
                    >
                      ▶ Replay
                    </Link>
                  </>
                )}{' '}
                <span className="muted small">
                  {formatCount(session.pageviews)} pageviews · {formatCount(session.events)} events
                </span>
              </p>
              <ol className="timeline">
                {(bySession.get(session.sessionId) ?? []).map((event) => (
                  <li key={event.key} className={`timeline-item timeline-${event.type}`}>
                    <span className="timeline-time">{formatDateTime(event.timestamp)}</span>
                    <span className="timeline-type">
                      {eventTypeLabels[event.type as keyof typeof eventTypeLabels] ?? event.type}
                    </span>
                    <span className="timeline-what">
                      {event.eventName || event.pathname}
                      {event.eventName && event.pathname && (
                        <span className="muted"> on {event.pathname}</span>
                      )}
                    </span>
                  </li>
                ))}
              </ol>
            </li>
          )
        })}
      </ol>
    </section>
  )
}
