/**
 * The organization's own identity provider (`GET`/`PUT`/`DELETE /api/organizations/{id}/sso/provider`),
 * for owners: issuer, client id and secret, the role claim and role map (`group:role` pairs, one per
 * line), and the e-mail domains it owns. "Sign in with SSO" sends an address of those domains there.
 * The server checks the issuer by discovery when saving; the secret is never shown again.
 */
import type { Role } from '@pathlight/protocol'
import { useEffect, useState } from 'react'
import { api } from '../api/api'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { Field } from './field'
import { FormError } from './form-error'

const ROLES: readonly string[] = ['owner', 'admin', 'member']

/** `group:role` lines to the API's role map; lines that are not such a pair are left out. */
function parseRoleMap(text: string): { group: string; role: Role }[] {
  return text
    .split(/\n|,/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const at = line.lastIndexOf(':')
      return { group: line.slice(0, at).trim(), role: line.slice(at + 1).trim() as Role }
    })
    .filter((m) => m.group !== '' && ROLES.includes(m.role))
}

/** The card. */
export function SsoProviderCard({ organizationId }: { organizationId: string }) {
  const state = useResource(`sso-provider:${organizationId}`, () => api.ssoProvider(organizationId))
  const [issuer, setIssuer] = useState('')
  const [clientId, setClientId] = useState('')
  const [clientSecret, setClientSecret] = useState('')
  const [roleClaim, setRoleClaim] = useState('groups')
  const [roleMap, setRoleMap] = useState('')
  const [domains, setDomains] = useState('')
  const [name, setName] = useState('SSO')
  const [result, setResult] = useState<string>()
  const save = useAction()
  const remove = useAction()
  const provider = state.data?.provider
  useEffect(() => {
    if (!provider) return
    setIssuer(provider.issuer)
    setClientId(provider.clientId)
    setRoleClaim(provider.roleClaim)
    setRoleMap(provider.roleMap.map((m) => `${m.group}:${m.role}`).join('\n'))
    setDomains(provider.domains.join(', '))
    setName(provider.name)
  }, [provider])

  return (
    <form
      className="card"
      aria-labelledby="sso-provider-title"
      onSubmit={(event) => {
        event.preventDefault()
        setResult(undefined)
        void save.run(async () => {
          await api.updateSsoProvider(organizationId, {
            issuer: issuer.trim(),
            clientId: clientId.trim(),
            ...(clientSecret !== '' && { clientSecret }),
            roleClaim: roleClaim.trim() || 'groups',
            roleMap: parseRoleMap(roleMap),
            domains: domains
              .split(/[\s,]+/)
              .map((d) => d.trim().toLowerCase())
              .filter((d) => d !== ''),
            name: name.trim() || 'SSO',
          })
          setClientSecret('')
          state.reload()
          setResult('Saved.')
        })
      }}
    >
      <h2 id="sso-provider-title">Identity provider</h2>
      <p className="muted">
        Members with an address at your domains sign in through your OpenID Connect provider. Register
        Pathlight there with the redirect URI <code>{state.data?.callbackUrl ?? '…'}</code>. Domain ownership
        is not verified; a domain another organization has, or a public mail domain, is refused.
      </p>
      <FormError error={state.error ?? save.error ?? remove.error} />
      <Field label="Issuer URL" errors={save.error?.field('issuer')}>
        {(control) => (
          <input
            {...control}
            type="url"
            required
            placeholder="https://login.example.com/realms/acme"
            value={issuer}
            onChange={(e) => setIssuer(e.target.value)}
          />
        )}
      </Field>
      <Field label="Client ID" errors={save.error?.field('clientId')}>
        {(control) => (
          <input {...control} required value={clientId} onChange={(e) => setClientId(e.target.value)} />
        )}
      </Field>
      <Field
        label="Client secret"
        hint={provider ? 'Stored encrypted; leave empty to keep it.' : undefined}
        errors={save.error?.field('clientSecret')}
      >
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="off"
            required={!provider}
            value={clientSecret}
            onChange={(e) => setClientSecret(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="E-mail domains"
        hint="Comma-separated, e.g. example.com, example.org"
        errors={save.error?.field('domains')}
      >
        {(control) => (
          <input {...control} required value={domains} onChange={(e) => setDomains(e.target.value)} />
        )}
      </Field>
      <Field
        label="Role claim"
        hint="The ID token claim listing groups or roles"
        errors={save.error?.field('roleClaim')}
      >
        {(control) => <input {...control} value={roleClaim} onChange={(e) => setRoleClaim(e.target.value)} />}
      </Field>
      <Field
        label="Role map"
        hint="One group:role per line (owner, admin or member)"
        errors={save.error?.field('roleMap')}
      >
        {(control) => (
          <textarea {...control} rows={3} value={roleMap} onChange={(e) => setRoleMap(e.target.value)} />
        )}
      </Field>
      <Field label="Name on the sign-in page" errors={save.error?.field('name')}>
        {(control) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.busy || !state.data}>
          {save.busy ? 'Checking the issuer…' : 'Save provider'}
        </button>
        {provider && (
          <button
            type="button"
            className="button"
            disabled={remove.busy}
            onClick={() => {
              setResult(undefined)
              void remove.run(async () => {
                await api.deleteSsoProvider(organizationId)
                state.reload()
                setResult('Removed.')
              })
            }}
          >
            Remove provider
          </button>
        )}
        {result && (
          <span role="status" className="saved">
            {result}
          </span>
        )}
      </div>
    </form>
  )
}
