/**
 * A site's installation page, its home until the first event arrives: the tracking snippet to copy
 * and a live check that turns green when the first event is stored (then a button opens the reports).
 */
import type { Site, SiteEventStatus } from '@pathlight/protocol'
import { useEffect, useState } from 'react'
import { CopyButton } from '../components/copy-button'
import { OnboardingSteps } from '../components/onboarding-steps'
import { explainDrops } from '../lib/drop-reasons'
import { formatDateTime, formatRelative } from '../lib/format'
import { trackingSnippet } from '../lib/snippet'
import { useSiteStatus } from '../lib/use-site-status'
import { Link } from '../router/link'
import { routePath } from '../router/routes'

/** The installation page of `site`: live status, snippet, server-side tracking. */
export function InstallPage({ site, onShowReports }: { site: Site; onShowReports: () => void }) {
  const { status, failed } = useSiteStatus(site.siteId)
  const snippet = trackingSnippet(window.location.origin, site.siteId)
  const receiving = status?.hasEvents === true
  return (
    <div className="stack">
      {status && !receiving && <OnboardingSteps current={3} />}
      <section className="card" aria-labelledby="status-title">
        <h2 id="status-title">Tracking status</h2>
        <TrackingStatus receiving={receiving} lastEventAt={status?.lastEventAt ?? null} checking={!status} />
        {!receiving && status?.drops && <DroppedRequests drops={status.drops} siteId={site.siteId} />}
        {failed && <p className="hint">The last check failed; trying again.</p>}
        {receiving && (
          <p className="status-action">
            <button type="button" className="button button-primary" onClick={onShowReports}>
              Show the reports
            </button>
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="snippet-title">
        <h2 id="snippet-title">Add the tracking script</h2>
        <p>
          Paste this into the <code>&lt;head&gt;</code> of every page of <strong>{site.domain}</strong>. It
          sets no cookies and sends pageviews, including single-page-app navigations.
        </p>
        <div className="snippet">
          <pre>
            <code>{snippet}</code>
          </pre>
          <CopyButton text={snippet} label="Copy snippet" />
        </div>
        <p className="hint">
          Custom events: <code>pathlight.event('signup', {'{ plan: "pro" }'})</code>. Outbound links,
          JavaScript errors and Core Web Vitals follow the site’s{' '}
          <Link to={routePath({ name: 'siteSettings', siteId: String(site.siteId) })}>settings</Link>.
        </p>
      </section>

      <section className="card" aria-labelledby="server-title">
        <h2 id="server-title">Tracking from a server or an app</h2>
        <p>
          Send events to <code>{window.location.origin}/api/track</code> with an API key (
          <Link to={routePath({ name: 'account' })}>create one in your account</Link>) as{' '}
          <code>Authorization: Bearer …</code>, and <code>"site_id": "{site.siteId}"</code> in the JSON body.
        </p>
      </section>
      <p className="muted">This page becomes the site’s overview once its first event has arrived.</p>
    </div>
  )
}

/** Requests for the site that arrived and were not recorded, and why: what to change, reason by reason. */
function DroppedRequests({
  drops,
  siteId,
}: {
  drops: NonNullable<SiteEventStatus['drops']>
  siteId: number
}) {
  const explained = explainDrops(drops.byReason)
  return (
    <div className="dropped-requests" role="alert">
      <p>
        <strong>
          {drops.count} {drops.count === 1 ? 'request' : 'requests'} arrived and{' '}
          {drops.count === 1 ? 'was' : 'were'} dropped
        </strong>{' '}
        (the last <time dateTime={drops.lastAt}>{formatDateTime(drops.lastAt)}</time>):
      </p>
      <ul>
        {explained.map((entry) => (
          <li key={entry.reason}>
            {entry.count} {entry.what}. {entry.fix}
          </li>
        ))}
      </ul>
      <p className="hint">
        <Link to={routePath({ name: 'siteSettings', siteId: String(siteId) })}>Site settings</Link>
      </p>
    </div>
  )
}

function TrackingStatus({
  receiving,
  lastEventAt,
  checking,
}: {
  receiving: boolean
  lastEventAt: string | null
  checking: boolean
}) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000)
    return () => clearInterval(timer)
  }, [])
  return (
    <div role="status" className={receiving ? 'status status-ok' : 'status status-waiting'}>
      <span className="status-dot" aria-hidden="true" />
      {checking ? (
        <span>Checking…</span>
      ) : receiving ? (
        <span>
          <strong>Receiving events.</strong>{' '}
          {lastEventAt && (
            <>
              Last event{' '}
              <time dateTime={lastEventAt} title={formatDateTime(lastEventAt)}>
                {formatRelative(lastEventAt, now)}
              </time>
              .
            </>
          )}
        </span>
      ) : (
        <span>
          <strong>Waiting for the first event…</strong> This turns green as soon as one arrives.
        </span>
      )}
    </div>
  )
}
