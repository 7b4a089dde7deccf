/**
 * The frame of a shared view: a site's reports opened with its private link key (`?key=`, sent as
 * `X-Private-Key`) or, for a public site, by anyone. Read-only: no settings, webhooks, alerts or goal
 * changes, and no organization navigation. A private site opened without a valid key sends a
 * signed-out visitor to sign in (and back here afterwards); a signed-in non-member sees "not found".
 */
import { useMemo } from 'react'
import { createReportsApi } from '../api/reports-api'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PageHeading } from '../components/page-heading'
import { ReportTabLinks, reportTabs, SiteTabs, tabOf } from '../components/reports/report-tabs'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { browserHistory } from '../router/navigation'
import { Redirect } from '../router/redirect'
import { type ReportRouteName, type RouteOf, routePath } from '../router/routes'
import { NotFoundPage } from './not-found-page'
import { ReportPage } from './report-page'

/** The shared view of `route`'s site; `privateKey` from the URL, `signedIn` whether a session exists. */
export function SharedScope({
  route,
  privateKey,
  signedIn,
}: {
  route: RouteOf<ReportRouteName>
  privateKey: string | undefined
  signedIn: boolean
}) {
  const reports = useMemo(() => createReportsApi(route.siteId, privateKey), [route.siteId, privateKey])
  const summary = useResource(`summary:${route.siteId}:${privateKey ?? ''}`, reports.summary)
  if (summary.error?.status === 401 && !signedIn) {
    return <Redirect to={routePath({ name: 'signIn', next: browserHistory().snapshot() })} />
  }
  // A signed-in non-member without a key, on a site that is not public: as for any unknown site.
  if (summary.error?.status === 404 && signedIn && !privateKey) return <NotFoundPage what="Site" />
  const activeTab = tabOf(route.name)
  const label = reportTabs.find((t) => t.name === activeTab)?.label ?? ''
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <span className="brand">
            <img src="/favicon.svg" alt="" width="22" height="22" />
            Pathlight
          </span>
          <span className="badge badge-off">Shared view · read-only</span>
          <div className="topbar-end">
            {signedIn ? (
              <Link to="/">Your sites</Link>
            ) : (
              <Link to={routePath({ name: 'signIn' })} className="button button-secondary button-small">
                Sign in
              </Link>
            )}
          </div>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {summary.error && (
          <div className="narrow">
            <PageHeading title="This link does not work" />
            <FormError error={summary.error} />
            <p>The link may have been revoked, or the site deleted. Ask whoever shared it for a new one.</p>
          </div>
        )}
        {!summary.data && !summary.error && <Loading />}
        {summary.data && (
          <>
            <div className="site-head">
              <PageHeading
                key={route.name}
                title={summary.data.name}
                documentTitle={`${label} · ${summary.data.name}`}
              />
              <p className="site-domain">{summary.data.domain}</p>
            </div>
            <SiteTabs active={activeTab}>
              <ReportTabLinks siteId={route.siteId} active={activeTab} />
            </SiteTabs>
            <ReportPage
              route={route}
              siteId={summary.data.siteId}
              privateKey={privateKey}
              canAdmin={false}
              shared
            />
          </>
        )}
      </main>
    </>
  )
}
