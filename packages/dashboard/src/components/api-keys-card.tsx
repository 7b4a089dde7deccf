/**
 * The signed-in user's API keys: list (scope, expiry, last use), create with a scope and an expiry (the
 * value shown once), delete. Expiry dates are computed in the browser from the choice made.
 */
import type { ApiKeyScope } from '@pathlight/protocol'
import { useState } from 'react'
import { api } from '../api/api'
import {
  type ExpiryChoice,
  expiresAtFor,
  expiryChoices,
  isExpired,
  scopeChoices,
  scopeLabel,
} from '../lib/api-key-text'
import { formatDate, formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { ConfirmButton } from './confirm-button'
import { Field } from './field'
import { FormError } from './form-error'
import { Loading } from './loading'
import { RadioGroup } from './radio-group'
import { SecretNotice } from './secret-notice'

const DEFAULT_SCOPE: ApiKeyScope = 'track'
const DEFAULT_EXPIRY: ExpiryChoice = 'never'

/** The API keys section of the account page, for the user `userId`. */
export function ApiKeysCard({ userId }: { userId: string }) {
  const keys = useResource(`api-keys:${userId}`, api.apiKeys)
  const [name, setName] = useState('')
  const [scope, setScope] = useState<ApiKeyScope>(DEFAULT_SCOPE)
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY)
  const [created, setCreated] = useState<{ name: string; key: string }>()
  const create = useAction()
  const remove = useAction()
  const now = Date.now()
  const expiresAt = expiresAtFor(expiry, now)

  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p>
        A key acts as you, with your role in each of your organizations, but only within its scope: a{' '}
        <strong>Track only</strong> key can just send events (<code>POST /api/track</code>), which is all a
        server-side tracking client needs; a <strong>Read</strong> key reads reports and the API; a{' '}
        <strong>Server logs</strong> key can just send a site’s access log (the Crawlers page); a{' '}
        <strong>Full access</strong> key can do everything you can. Keep keys out of browser code.
      </p>
      {created && (
        <SecretNotice
          title={`Your new API key “${created.name}”`}
          value={created.key}
          onDone={() => setCreated(undefined)}
        />
      )}
      <FormError error={keys.error} />
      <FormError error={remove.error} />
      {keys.loading && !keys.data && <Loading />}
      {keys.data?.length === 0 && <p className="muted">No API keys yet.</p>}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Your API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}…</code>
                  </td>
                  <td>{scopeLabel(key.scope)}</td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>
                    {key.expiresAt ? formatDateTime(key.expiresAt) : 'never'}
                    {isExpired(key, now) && <span className="badge badge-error">expired</span>}
                  </td>
                  <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never'}</td>
                  <td className="actions">
                    <ConfirmButton
                      label="Delete"
                      question={`Delete “${key.name}”? Anything using it stops working.`}
                      onConfirm={() =>
                        remove.run(async () => {
                          await api.deleteApiKey(key.id)
                          keys.setData((list) => (list ?? []).filter((k) => k.id !== key.id))
                        })
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        className="subform"
        onSubmit={(event) => {
          event.preventDefault()
          void create.run(async () => {
            const { key, ...info } = await api.createApiKey({
              name,
              scope,
              expiresAt: expiresAtFor(expiry, Date.now()),
            })
            keys.setData((list) => [...(list ?? []), info])
            setCreated({ name: info.name, key })
            setName('')
            setScope(DEFAULT_SCOPE)
            setExpiry(DEFAULT_EXPIRY)
          })
        }}
      >
        <h3>Create a key</h3>
        <FormError error={create.error} />
        <div className="row">
          <Field label="Key name" hint="What uses it, e.g. backend." errors={create.error?.field('name')}>
            {(control) => (
              <input
                {...control}
                required
                maxLength={100}
                value={name}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Expiry"
            hint={
              expiresAt ? `It stops working on ${formatDate(expiresAt)}.` : 'It works until you delete it.'
            }
            errors={create.error?.field('expiresAt')}
          >
            {(control) => (
              <select
                {...control}
                value={expiry}
                onChange={(e) =>
                  setExpiry(expiryChoices.find((c) => c.value === e.target.value)?.value ?? DEFAULT_EXPIRY)
                }
              >
                {expiryChoices.map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <RadioGroup
          legend="Scope"
          options={scopeChoices}
          value={scope}
          onChange={setScope}
          errors={create.error?.field('scope')}
        />
        <button type="submit" className="button button-primary" disabled={create.busy}>
          Create key
        </button>
      </form>
    </section>
  )
}
