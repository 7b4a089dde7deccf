/** The organization switcher of the top bar: a select that opens the chosen organization. */
import { useId } from 'react'
import { navigate } from '../router/navigation'
import { routePath } from '../router/routes'
import { useSession } from '../session'

const NEW = '__new'

/** A select of the caller’s organizations with `current` chosen, plus "New organization…". */
export function OrgSwitcher({ current }: { current: string | undefined }) {
  const { organizations } = useSession()
  const id = useId()
  if (!organizations) return null
  const known = current !== undefined && organizations.some((o) => o.id === current)
  return (
    <div className="org-switcher">
      <label htmlFor={id} className="visually-hidden">
        Organization
      </label>
      <select
        id={id}
        value={known ? current : ''}
        onChange={(event) => {
          const value = event.target.value
          if (value === NEW) navigate(routePath({ name: 'newOrganization' }))
          else if (value) navigate(routePath({ name: 'organization', organizationId: value }))
        }}
      >
        {!known && (
          <option value="" disabled>
            Choose an organization
          </option>
        )}
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
        <option value={NEW}>+ New organization…</option>
      </select>
    </div>
  )
}
