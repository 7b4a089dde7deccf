/**
 * Renaming an organization (`PATCH /api/organizations/{id}`), for admins and owners. The server's
 * message appears under the field.
 */
import { useState } from 'react'
import { api } from '../api/api'
import { useAction } from '../lib/use-action'
import { Field } from './field'
import { FormError } from './form-error'

/** The form; `onSaved` runs once the server confirmed the new name. */
export function OrganizationNameForm({
  organizationId,
  name: savedName,
  onSaved,
}: {
  organizationId: string
  name: string
  onSaved: (name: string) => void
}) {
  const [name, setName] = useState(savedName)
  /** The name the server last confirmed (the session's list catches up after `onSaved`). */
  const [saved, setSaved] = useState(savedName)
  const [result, setResult] = useState<string>()
  const action = useAction()
  const dirty = name.trim() !== saved

  return (
    <form
      className="card"
      aria-labelledby="organization-name-title"
      onSubmit={(event) => {
        event.preventDefault()
        setResult(undefined)
        void action.run(async () => {
          const renamed = await api.renameOrganization(organizationId, name)
          setName(renamed.name)
          setSaved(renamed.name)
          onSaved(renamed.name)
          setResult('Saved.')
        })
      }}
    >
      <h2 id="organization-name-title">Organization name</h2>
      <Field label="Organization name" labelHidden errors={action.error?.field('name')}>
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
      <FormError error={action.error} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={action.busy || !dirty}>
          {action.busy ? 'Saving…' : 'Rename'}
        </button>
        <span role="status" className="saved">
          {!dirty && result ? result : dirty ? 'Unsaved changes' : ''}
        </span>
      </div>
    </form>
  )
}
