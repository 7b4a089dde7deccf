/** A site's alert rules (admin or owner): list with their state, create, edit, delete. */
import type { AlertRule, AlertRuleInput } from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { api } from '../api/api'
import { client } from '../api/contract-client'
import { AlertForm, newAlertRule } from '../components/alert-form'
import { ConfirmButton } from '../components/confirm-button'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { describeCondition } from '../lib/alert-text'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import type { SiteContext } from './site-scope'

const inputOf = (rule: AlertRule): AlertRuleInput => ({
  name: rule.name,
  metric: rule.metric,
  eventName: rule.eventName,
  windowMinutes: rule.windowMinutes,
  comparison: rule.comparison,
  threshold: rule.threshold,
  relative: rule.relative,
  enabled: rule.enabled,
  emailRecipients: rule.emailRecipients,
  crawlerCategory: rule.crawlerCategory,
  crawlerAgent: rule.crawlerAgent,
})

/** How each address of a rule stands, e.g. `ada@example.com (waits for confirmation)`. */
const describeRecipients = (rule: AlertRule) =>
  rule.recipients
    .map(({ email, status }) =>
      status === 'pending'
        ? `${email} (waits for confirmation)`
        : status === 'unsubscribed'
          ? `${email} (unsubscribed)`
          : email,
    )
    .join(', ')

/** The alert rules of the site in scope (a notice for plain members). */
export function AlertsPage({ site, canAdmin }: SiteContext) {
  const [mailConfigured, setMailConfigured] = useState(true)
  const alerts = useResource(`alerts:${site.siteId}`, async () => {
    const answer = await client(endpoints.listAlerts, { params: { siteId: site.siteId } })
    setMailConfigured(answer.meta.mailConfigured)
    return answer.data
  })
  const [warnings, setWarnings] = useState<string[]>([])
  const [editing, setEditing] = useState<string>()
  const [formKey, setFormKey] = useState(0)
  const create = useAction()
  const edit = useAction()
  const remove = useAction()
  if (!canAdmin)
    return <p className="notice">Alerts are managed by the admins and owners of this organization.</p>

  return (
    <div className="stack">
      <section className="card" aria-labelledby="alerts-title">
        <h2 id="alerts-title">Alerts</h2>
        <p>
          Rules are checked every minute. When one triggers, webhooks subscribed to{' '}
          <code>alert.triggered</code> are called and its e-mail recipients get a mail; it triggers again only
          after its condition has cleared.
        </p>
        <FormError error={alerts.error} />
        <FormError error={remove.error} />
        {warnings.map((warning) => (
          <p key={warning} className="notice" role="status">
            {warning}
          </p>
        ))}
        {alerts.loading && !alerts.data && <Loading />}
        {alerts.data?.length === 0 && <p className="muted">No alert rules yet.</p>}
        {alerts.data && alerts.data.length > 0 && (
          <ul className="item-list">
            {alerts.data.map((rule) => (
              <li key={rule.id} className="item">
                {editing === rule.id ? (
                  <AlertForm
                    initial={inputOf(rule)}
                    mailConfigured={mailConfigured}
                    submitLabel="Save rule"
                    busy={edit.busy}
                    error={edit.error}
                    onCancel={() => {
                      edit.clear()
                      setEditing(undefined)
                    }}
                    onSubmit={(input) =>
                      void edit.run(async () => {
                        const answer = await client(endpoints.updateAlert, {
                          params: { siteId: site.siteId, id: rule.id },
                          body: input,
                        })
                        const updated = answer.data
                        setWarnings(answer.warnings ?? [])
                        alerts.setData((list) => (list ?? []).map((r) => (r.id === updated.id ? updated : r)))
                        setEditing(undefined)
                      })
                    }
                  />
                ) : (
                  <div className="item-body">
                    <div className="item-main">
                      <p className="item-title">
                        <strong>{rule.name}</strong>
                        {!rule.enabled ? (
                          <span className="badge badge-off">Off</span>
                        ) : rule.state === 'triggered' ? (
                          <span className="badge badge-error">Triggered</span>
                        ) : (
                          <span className="badge badge-ok">OK</span>
                        )}
                      </p>
                      <p>{describeCondition(rule)}</p>
                      {rule.emailRecipients.length > 0 && (
                        <p className="muted">E-mails {describeRecipients(rule)}</p>
                      )}
                      <p className="muted">
                        {rule.lastEvaluatedAt
                          ? `Last value ${rule.lastValue ?? '–'} at ${formatDateTime(rule.lastEvaluatedAt)}`
                          : 'Not evaluated yet'}
                        {rule.lastTriggeredAt && ` · last triggered ${formatDateTime(rule.lastTriggeredAt)}`}
                      </p>
                    </div>
                    <div className="item-actions">
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => {
                          edit.clear()
                          setEditing(rule.id)
                        }}
                      >
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        question="Delete this rule?"
                        onConfirm={() =>
                          remove.run(async () => {
                            await api.deleteAlert(site.siteId, rule.id)
                            alerts.setData((list) => (list ?? []).filter((r) => r.id !== rule.id))
                          })
                        }
                      />
                    </div>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="new-alert-title">
        <h2 id="new-alert-title">Add an alert rule</h2>
        <AlertForm
          key={formKey}
          initial={newAlertRule}
          mailConfigured={mailConfigured}
          submitLabel="Create rule"
          busy={create.busy}
          error={create.error}
          onSubmit={(input) =>
            void create.run(async () => {
              const answer = await client(endpoints.createAlert, {
                params: { siteId: site.siteId },
                body: input,
              })
              const created = answer.data
              setWarnings(answer.warnings ?? [])
              alerts.setData((list) => [...(list ?? []), created])
              setFormKey((k) => k + 1)
            })
          }
        />
      </section>
    </div>
  )
}
