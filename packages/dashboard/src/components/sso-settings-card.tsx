/**
 * An organization's single sign-on settings (`GET`/`PUT /api/organizations/{id}/sso`), for admins and
 * owners: SSO-only, whose members then sign in through the identity provider only (the instance
 * owner keeps a password; API keys keep working). Shown only when the instance offers SSO.
 */
import { useEffect, useState } from 'react'
import { api } from '../api/api'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { CheckboxField } from './checkbox-field'
import { FormError } from './form-error'

/** The card; nothing while the instance offers no SSO. */
export function SsoSettingsCard({ organizationId }: { organizationId: string }) {
  const config = useResource('sso-config', api.ssoConfig)
  const settings = useResource(`sso:${organizationId}`, () => api.ssoSettings(organizationId))
  const [ssoOnly, setSsoOnly] = useState(false)
  const [result, setResult] = useState<string>()
  const action = useAction()
  useEffect(() => {
    if (settings.data) setSsoOnly(settings.data.ssoOnly)
  }, [settings.data])
  if (!config.data?.enabled) return null

  return (
    <form
      className="card"
      aria-labelledby="sso-settings-title"
      onSubmit={(event) => {
        event.preventDefault()
        setResult(undefined)
        void action.run(async () => {
          const saved = await api.updateSsoSettings(organizationId, { ssoOnly })
          setSsoOnly(saved.ssoOnly)
          setResult('Saved.')
        })
      }}
    >
      <h2 id="sso-settings-title">Single sign-on</h2>
      <FormError error={settings.error ?? action.error} />
      <CheckboxField
        label="Members sign in with SSO only"
        description="Password sign-in and password reset are refused for this organization's members. API keys keep working; the instance owner keeps a password."
        checked={ssoOnly}
        disabled={!settings.data}
        onChange={setSsoOnly}
      />
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={action.busy || !settings.data || settings.data.ssoOnly === ssoOnly}
        >
          {action.busy ? 'Saving…' : 'Save'}
        </button>
        {result && (
          <span role="status" className="saved">
            {result}
          </span>
        )}
      </div>
    </form>
  )
}
