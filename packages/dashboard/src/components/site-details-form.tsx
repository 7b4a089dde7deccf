/**
 * A site's name and domain, editable by admins and owners (`PATCH /api/sites/{id}`): only the changed
 * fields are sent; the server normalises the domain and its messages appear under the field concerned.
 */
import type { Site } from '@pathlight/protocol'
import { useState } from 'react'
import { api } from '../api/api'
import { useAction } from '../lib/use-action'
import { Field } from './field'
import { FormError } from './form-error'

/** The form; `onSaved` receives the site as the server saved it. */
export function SiteDetailsForm({
  site,
  canAdmin,
  onSaved,
}: {
  site: Site
  canAdmin: boolean
  onSaved: (site: Site) => void
}) {
  const [name, setName] = useState(site.name)
  const [domain, setDomain] = useState(site.domain)
  const [result, setResult] = useState<string>()
  const action = useAction()
  const changes = {
    ...(name.trim() !== site.name ? { name } : {}),
    ...(domain.trim() !== site.domain ? { domain } : {}),
  }
  const dirty = Object.keys(changes).length > 0

  return (
    <form
      className="card"
      aria-labelledby="site-details-title"
      onSubmit={(event) => {
        event.preventDefault()
        setResult(undefined)
        void action.run(async () => {
          const saved = await api.updateSite(site.siteId, changes)
          setName(saved.name)
          setDomain(saved.domain)
          onSaved(saved)
          setResult('Saved.')
        })
      }}
    >
      <h2 id="site-details-title">Name and domain</h2>
      <fieldset disabled={!canAdmin} className="plain">
        <Field label="Site name" errors={action.error?.field('name')}>
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
          label="Site domain"
          hint="Tracking accepts events from this host name and its subdomains."
          errors={action.error?.field('domain')}
        >
          {(control) => (
            <input
              {...control}
              required
              spellCheck={false}
              autoCapitalize="none"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
            />
          )}
        </Field>
        <FormError error={action.error} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={action.busy || !dirty}>
            {action.busy ? 'Saving…' : 'Save name and domain'}
          </button>
          <span role="status" className="saved">
            {!dirty && result ? result : dirty ? 'Unsaved changes' : ''}
          </span>
        </div>
      </fieldset>
    </form>
  )
}
