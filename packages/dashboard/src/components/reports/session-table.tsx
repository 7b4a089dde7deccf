/**
 * Sessions as a table, newest first: when, where from, how long, which pages; each opens its timeline.
 * A session with a session replay recording (`hasReplay`) carries a "▶ Replay" link to its page.
 */
import type { Session } from '@pathlight/protocol'
import { formatDateTime } from '../../lib/format'
import { formatCount, formatSeconds } from '../../lib/report-format'
import { countryName } from '../../lib/report-labels'
import type { ReportContext } from '../../pages/report-context'
import { Link } from '../../router/link'
import { GeoCredit } from './geo-credit'
import { PathText } from './path-text'

/** The table of `sessions` (with the DB-IP credit for their countries). */
export function SessionTable({ ctx, sessions }: { ctx: ReportContext; sessions: Session[] }) {
  return (
    <>
      <div className="table-wrap">
        <table className="report-table">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Pages</th>
              <th scope="col" className="num">
                Pageviews
              </th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">Country</th>
              <th scope="col">Device</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.session_id}>
                <td>
                  <Link
                    to={ctx.link({ name: 'session', siteId: String(ctx.siteId), sessionId: s.session_id })}
                  >
                    {formatDateTime(s.session_start)}
                  </Link>
                  {s.hasReplay && (
                    <>
                      {' '}
                      <Link
                        className="replay-badge"
                        to={ctx.link({
                          name: 'session',
                          siteId: String(ctx.siteId),
                          sessionId: s.session_id,
                        })}
                        aria-label={`Watch the replay of the session of ${formatDateTime(s.session_start)}`}
                      >
                        ▶ Replay
                      </Link>
                    </>
                  )}
                </td>
                <td className="path-cell">
                  {s.entry_page ? <PathText path={s.entry_page} /> : '–'}
                  {s.exit_page && s.exit_page !== s.entry_page && (
                    <>
                      {' → '}
                      <PathText path={s.exit_page} />
                    </>
                  )}
                </td>
                <td className="num">{formatCount(s.pageviews)}</td>
                <td className="num">{formatSeconds(s.session_duration)}</td>
                <td>{countryName(s.country)}</td>
                <td>{[s.browser, s.operating_system, s.device_type].filter(Boolean).join(' · ')}</td>
                <td>{s.channel}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <GeoCredit />
    </>
  )
}
