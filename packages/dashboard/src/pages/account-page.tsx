/** The signed-in user's account: who they are, and their API keys (each key's value is shown once). */
import { useState } from 'react'
import { api } from '../api/api'
import { AppShell } from '../components/app-shell'
import { ConfirmButton } from '../components/confirm-button'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PageHeading } from '../components/page-heading'
import { SecretNotice } from '../components/secret-notice'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { lastOrganization, useSession } from '../session'

/** The account page at `/account`. */
export function AccountPage() {
  const { user, organizations } = useSession()
  const keys = useResource(`api-keys:${user.id}`, api.apiKeys)
  const [name, setName] = useState('')
  const [created, setCreated] = useState<{ name: string; key: string }>()
  const create = useAction()
  const remove = useAction()
  const last = lastOrganization()
  const organizationId = organizations?.some((o) => o.id === last)
    ? (last ?? undefined)
    : organizations?.[0]?.id

  return (
    <AppShell organizationId={organizationId} section="account">
      <PageHeading title="Account" />
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </dl>
      </section>

      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">API keys</h2>
        <p>
          A key acts as you, with your role in each of your organizations: for server-side tracking (
          <code>POST /api/track</code>) and the API. Keep keys out of browser code.
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
                  <th scope="col">Created</th>
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
                    <td>{formatDateTime(key.createdAt)}</td>
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
              const { key, ...info } = await api.createApiKey(name)
              keys.setData((list) => [...(list ?? []), info])
              setCreated({ name: info.name, key })
              setName('')
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
            <button type="submit" className="button button-primary" disabled={create.busy}>
              Create key
            </button>
          </div>
        </form>
      </section>
    </AppShell>
  )
}
