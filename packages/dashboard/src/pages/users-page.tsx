/**
 * The identified users of a site (members only): those the site named with `identify` (`user_id` in
 * tracking or `POST /api/identify`); anonymous visitors never appear. Search by user id or trait text,
 * sort by last seen, first seen, sessions, pageviews or events, 50 a page; the URL keeps all of it.
 */
import type { UserSortKey, UserSummary } from '@pathlight/protocol'
import { type FormEvent, useState } from 'react'
import { api } from '../api/api'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { Pager } from '../components/reports/pager'
import { formatDateTime } from '../lib/format'
import { formatCount } from '../lib/report-format'
import { countryName } from '../lib/report-labels'
import { useResource } from '../lib/use-resource'
import { traitText } from '../lib/user-text'
import { Link } from '../router/link'
import { navigate } from '../router/navigation'
import { type RouteOf, routePath, type UsersQuery } from '../router/routes'
import type { SiteContext } from './site-scope'

const PAGE_SIZE = 50
/** Traits shown in a row of the list (the user's page shows them all). */
const LISTED_TRAITS = 3

/** The sort choices, in the order the picker lists them. */
export const userSortLabels: Record<UserSortKey, string> = {
  lastSeen: 'Last seen',
  firstSeen: 'First seen',
  sessions: 'Sessions',
  pageviews: 'Pageviews',
  events: 'Events',
  userId: 'User id',
}

/** The users list of the site in scope, as `route` (search, sort, order, page) asks. */
export function UsersPage({ site, route }: { site: SiteContext['site']; route: RouteOf<'users'> }) {
  const siteId = String(site.siteId)
  const query: UsersQuery = { search: route.search, sort: route.sort, order: route.order, page: route.page }
  const users = useResource(`users:${siteId}:${JSON.stringify(query)}`, () =>
    api.users(site.siteId, query, PAGE_SIZE),
  )
  const [search, setSearch] = useState(route.search ?? '')
  const go = (next: UsersQuery) => navigate(routePath({ name: 'users', siteId, ...next }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    go({ ...query, search: search.trim() || undefined, page: undefined })
  }
  const meta = users.data?.meta
  const page = route.page ?? 1
  return (
    <div className="stack">
      <section className="card" aria-labelledby="users-title" aria-busy={users.loading}>
        <div className="card-head">
          <h2 id="users-title">Users{meta ? ` (${formatCount(meta.total)})` : ''}</h2>
        </div>
        <p className="muted">
          The visitors your site identified, with their traits. Anonymous visitors are not listed.
        </p>
        <div className="toolbar-row">
          <form className="toolbar-row" aria-label="Search users" onSubmit={submit}>
            <label className="inline-field">
              Search
              <input
                type="search"
                value={search}
                maxLength={256}
                placeholder="User id or trait value"
                onChange={(event) => setSearch(event.target.value)}
              />
            </label>
            <button type="submit">Search</button>
          </form>
          <label className="inline-field">
            Sort by
            <select
              value={route.sort ?? 'lastSeen'}
              onChange={(event) => go({ ...query, sort: event.target.value as UserSortKey, page: undefined })}
            >
              {Object.entries(userSortLabels).map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            Order
            <select
              value={route.order ?? 'desc'}
              onChange={(event) =>
                go({ ...query, order: event.target.value as 'asc' | 'desc', page: undefined })
              }
            >
              <option value="desc">Highest / newest first</option>
              <option value="asc">Lowest / oldest first</option>
            </select>
          </label>
        </div>
        <FormError error={users.error} />
        {!users.data && users.loading && <Loading />}
        {users.data?.data.length === 0 &&
          (route.search ? (
            <p className="muted">No users match “{route.search}”.</p>
          ) : (
            <p className="notice" data-testid="users-empty">
              No identified users yet. Users appear here after your site calls <code>identify</code>: Rybbit’s
              SDK’s <code>identify(userId, traits)</code>, <code>POST /api/identify</code>, or a{' '}
              <code>user_id</code> in a tracked event. Anonymous visitors are never listed.
            </p>
          ))}
        {users.data && users.data.data.length > 0 && <UsersTable siteId={siteId} users={users.data.data} />}
        {meta && (
          <Pager
            page={page}
            totalPages={meta.totalPages}
            hrefOf={(p) => routePath({ name: 'users', siteId, ...query, page: p })}
          />
        )}
      </section>
    </div>
  )
}

function UsersTable({ siteId, users }: { siteId: string; users: UserSummary[] }) {
  return (
    <div className="table-wrap">
      <table className="report-table" aria-label="Users">
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Traits</th>
            <th scope="col">Last seen</th>
            <th scope="col">First seen</th>
            <th scope="col" className="num">
              Sessions
            </th>
            <th scope="col" className="num">
              Pageviews
            </th>
            <th scope="col" className="num">
              Events
            </th>
            <th scope="col">Country</th>
            <th scope="col">Device</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const traits = Object.entries(user.traits)
            return (
              <tr key={user.userId} data-user={user.userId}>
                <th scope="row">
                  <Link to={routePath({ name: 'user', siteId, userId: user.userId })}>{user.userId}</Link>
                </th>
                <td className="muted small">
                  {traits
                    .slice(0, LISTED_TRAITS)
                    .map(([key, value]) => `${key}: ${traitText(value)}`)
                    .join(' · ')}
                  {traits.length > LISTED_TRAITS ? ' …' : ''}
                </td>
                <td>{formatDateTime(user.lastSeen)}</td>
                <td>{formatDateTime(user.firstSeen)}</td>
                <td className="num">{formatCount(user.sessions)}</td>
                <td className="num">{formatCount(user.pageviews)}</td>
                <td className="num">{formatCount(user.events)}</td>
                <td>{user.lastCountry ? countryName(user.lastCountry) : '–'}</td>
                <td>{user.lastDevice || '–'}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
