/**
 * A site's webhooks (admin or owner): list, create (the signing secret is shown once), edit URL,
 * events and on/off, rotate the secret (shown once), delete, and a link to each delivery log.
 */
import type { Webhook } from '@pathlight/protocol'
import { useState } from 'react'
import { api } from '../api/api'
import { ConfirmButton } from '../components/confirm-button'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { SecretNotice } from '../components/secret-notice'
import { WebhookForm } from '../components/webhook-form'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { routePath } from '../router/routes'
import type { SiteContext } from './site-scope'

/** The webhooks of the site in scope (a notice for plain members). */
export function WebhooksPage({ site, canAdmin }: SiteContext) {
  const webhooks = useResource(`webhooks:${site.siteId}`, () => api.webhooks(site.siteId))
  const [secret, setSecret] = useState<{ url: string; value: string }>()
  const [editing, setEditing] = useState<string>()
  const create = useAction()
  const edit = useAction()
  const rowAction = useAction()
  const [formKey, setFormKey] = useState(0)

  if (!canAdmin) {
    return <p className="notice">Webhooks are managed by the admins and owners of this organization.</p>
  }
  const replace = (updated: Webhook) =>
    webhooks.setData((list) => (list ?? []).map((w) => (w.id === updated.id ? updated : w)))

  return (
    <div className="stack">
      <section className="card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <p>
          Pathlight POSTs JSON to each endpoint when a selected event happens, signed with the webhook’s
          secret: <code>X-Pathlight-Signature</code> is the hex HMAC-SHA256 of the body. Failed deliveries are
          retried for about a day.
        </p>
        {secret && (
          <SecretNotice
            title={`Signing secret for ${secret.url}`}
            value={secret.value}
            onDone={() => setSecret(undefined)}
          />
        )}
        <FormError error={webhooks.error} />
        <FormError error={rowAction.error} />
        {webhooks.loading && !webhooks.data && <Loading />}
        {webhooks.data?.length === 0 && <p className="muted">No webhooks yet.</p>}
        {webhooks.data && webhooks.data.length > 0 && (
          <ul className="item-list">
            {webhooks.data.map((webhook) => (
              <li key={webhook.id} className="item">
                {editing === webhook.id ? (
                  <WebhookForm
                    initial={webhook}
                    submitLabel="Save webhook"
                    busy={edit.busy}
                    error={edit.error}
                    onCancel={() => {
                      edit.clear()
                      setEditing(undefined)
                    }}
                    onSubmit={(input) =>
                      void edit.run(async () => {
                        replace(await api.updateWebhook(site.siteId, webhook.id, input))
                        setEditing(undefined)
                      })
                    }
                  />
                ) : (
                  <WebhookSummary
                    webhook={webhook}
                    onEdit={() => {
                      edit.clear()
                      setEditing(webhook.id)
                    }}
                    onRotate={() =>
                      rowAction.run(async () => {
                        const rotated = await api.rotateWebhookSecret(site.siteId, webhook.id)
                        setSecret({ url: webhook.url, value: rotated.secret })
                      })
                    }
                    onDelete={() =>
                      rowAction.run(async () => {
                        await api.deleteWebhook(site.siteId, webhook.id)
                        webhooks.setData((list) => (list ?? []).filter((w) => w.id !== webhook.id))
                      })
                    }
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">Add a webhook</h2>
        <WebhookForm
          key={formKey}
          submitLabel="Create webhook"
          busy={create.busy}
          error={create.error}
          onSubmit={(input) =>
            void create.run(async () => {
              const created = await api.createWebhook(site.siteId, input)
              const { secret: value, ...webhook } = created
              webhooks.setData((list) => [...(list ?? []), webhook])
              setSecret({ url: webhook.url, value })
              setFormKey((k) => k + 1)
            })
          }
        />
      </section>
    </div>
  )
}

function WebhookSummary({
  webhook,
  onEdit,
  onRotate,
  onDelete,
}: {
  webhook: Webhook
  onEdit: () => void
  onRotate: () => Promise<unknown>
  onDelete: () => Promise<unknown>
}) {
  return (
    <div className="item-body">
      <div className="item-main">
        <p className="item-title">
          <code>{webhook.url}</code>
          {webhook.enabled ? (
            <span className="badge badge-ok">Enabled</span>
          ) : (
            <span className="badge badge-off">Disabled</span>
          )}
        </p>
        {webhook.description && <p>{webhook.description}</p>}
        <ul className="chips" aria-label="Events">
          {webhook.events.map((e) => (
            <li key={e} className="chip">
              {e}
            </li>
          ))}
        </ul>
        {webhook.disabledReason && (
          <p className="field-errors">Disabled by Pathlight: {webhook.disabledReason}</p>
        )}
        {webhook.failingSince && (
          <p className="field-errors">
            Failing since {formatDateTime(webhook.failingSince)} ({webhook.consecutiveFailures} failed
            deliveries)
          </p>
        )}
      </div>
      <div className="item-actions">
        <Link
          className="button button-secondary button-small"
          to={routePath({ name: 'webhook', siteId: String(webhook.siteId), webhookId: webhook.id })}
        >
          Delivery log
        </Link>
        <button type="button" className="button button-secondary button-small" onClick={onEdit}>
          Edit
        </button>
        <ConfirmButton
          label="Rotate secret"
          question="The old secret stops working at once."
          confirmLabel="Rotate"
          danger={false}
          onConfirm={onRotate}
        />
        <ConfirmButton label="Delete" question="Delete this webhook and its log?" onConfirm={onDelete} />
      </div>
    </div>
  )
}
