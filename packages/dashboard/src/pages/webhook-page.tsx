/**
 * One webhook's delivery log, newest first, a page at a time: each delivery's status and attempts
 * (status code or error, response body, time, duration), with a button to send it again.
 */
import type { Delivery } from '@pathlight/protocol'
import { useEffect } from 'react'
import { api } from '../api/api'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { formatDateTime, formatDuration } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { SiteContext } from './site-scope'

const PAGE_SIZE = 20
const PENDING_REFRESH_MS = 1500

/** The delivery log of `webhookId`, page `page` (1-based, 20 per page). */
export function WebhookPage({
  site,
  canAdmin,
  webhookId,
  page,
}: SiteContext & { webhookId: string; page: number }) {
  const webhook = useResource(`webhook:${webhookId}`, () => api.webhook(site.siteId, webhookId))
  const deliveries = useResource(`deliveries:${webhookId}:${page}`, () =>
    api.deliveries(site.siteId, webhookId, page, PAGE_SIZE),
  )
  const redeliver = useAction()
  const loaded = deliveries.data
  const reloadDeliveries = deliveries.reload
  // A new or redelivered delivery goes out within seconds: follow it until it has an outcome.
  useEffect(() => {
    if (!loaded?.data.some((d) => d.status === 'pending' && d.attempts === 0)) return
    const timer = setTimeout(reloadDeliveries, PENDING_REFRESH_MS)
    return () => clearTimeout(timer)
  }, [loaded, reloadDeliveries])
  const pathOf = (p: number) =>
    routePath({ name: 'webhook', siteId: String(site.siteId), webhookId, page: p })

  if (!canAdmin)
    return <p className="notice">Webhooks are managed by the admins and owners of this organization.</p>
  const meta = deliveries.data?.meta
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <p>
        <Link to={routePath({ name: 'webhooks', siteId: String(site.siteId) })}>← All webhooks</Link>
      </p>
      <div className="page-head">
        <h2 id="deliveries-title">Delivery log</h2>
        <button type="button" className="button button-secondary button-small" onClick={deliveries.reload}>
          Refresh
        </button>
      </div>
      {webhook.data && (
        <p>
          Deliveries to <code>{webhook.data.url}</code>. Each is retried up to 8 times over about a day; a
          redelivery sends the same payload again as a new delivery.
        </p>
      )}
      <FormError error={webhook.error ?? deliveries.error} />
      <FormError error={redeliver.error} />
      {deliveries.loading && !deliveries.data && <Loading />}
      {deliveries.data?.data.length === 0 && (
        <p className="muted">No deliveries yet: they appear when a subscribed event happens.</p>
      )}
      {deliveries.data && deliveries.data.data.length > 0 && (
        <ul className="item-list">
          {deliveries.data.data.map((delivery) => (
            <li key={delivery.id} className="item">
              <DeliveryItem
                delivery={delivery}
                busy={redeliver.busy}
                onRedeliver={() =>
                  void redeliver.run(async () => {
                    await api.redeliver(site.siteId, webhookId, delivery.id)
                    deliveries.reload()
                  })
                }
              />
            </li>
          ))}
        </ul>
      )}
      {meta && meta.totalPages > 1 && (
        <nav aria-label="Delivery log pages" className="pager">
          {page > 1 ? <Link to={pathOf(page - 1)}>← Newer</Link> : <span />}
          <span>
            Page {page} of {meta.totalPages}
          </span>
          {page < meta.totalPages ? <Link to={pathOf(page + 1)}>Older →</Link> : <span />}
        </nav>
      )}
    </section>
  )
}

function DeliveryItem({
  delivery,
  busy,
  onRedeliver,
}: {
  delivery: Delivery
  busy: boolean
  onRedeliver: () => void
}) {
  const badge = { delivered: 'badge-ok', failed: 'badge-error', pending: 'badge-off' }[delivery.status]
  return (
    <div className="item-body">
      <div className="item-main">
        <p className="item-title">
          <code>{delivery.eventType}</code>
          <span className={`badge ${badge}`}>{delivery.status}</span>
          <span className="muted">{formatDateTime(delivery.createdAt)}</span>
        </p>
        <p className="muted">
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
          {delivery.lastStatusCode !== null && <> · last answer HTTP {delivery.lastStatusCode}</>}
          {delivery.lastError && <> · {delivery.lastError}</>}
          {delivery.nextAttemptAt && <> · next attempt {formatDateTime(delivery.nextAttemptAt)}</>}
        </p>
        {delivery.attemptLog.length > 0 && (
          <details>
            <summary>Attempts</summary>
            <ol className="attempts">
              {delivery.attemptLog.map((attempt) => (
                <li key={attempt.attempt}>
                  <p>
                    #{attempt.attempt} at {formatDateTime(attempt.startedAt)}:{' '}
                    <strong>
                      {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : 'no answer'}
                    </strong>{' '}
                    in {formatDuration(attempt.durationMs)}
                    {attempt.error && <> · {attempt.error}</>}
                  </p>
                  {attempt.responseBody && <pre className="response-body">{attempt.responseBody}</pre>}
                </li>
              ))}
            </ol>
          </details>
        )}
        <details>
          <summary>Payload</summary>
          <pre className="response-body">{JSON.stringify(delivery.payload, null, 2)}</pre>
        </details>
      </div>
      <div className="item-actions">
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={busy}
          onClick={onRedeliver}
        >
          Redeliver
        </button>
      </div>
    </div>
  )
}
