/**
 * The saved funnels card of the funnels page: the site's saved funnels to open, rename or delete, and
 * saving the funnel being built (admins); the server's messages show at the name.
 */
import type { Funnel, FunnelStep } from '@pathlight/protocol'
import { type FormEvent, useState } from 'react'
import { type Action, useAction } from '../../lib/use-action'
import type { Report } from '../../lib/use-report'
import type { ReportContext } from '../../pages/report-context'
import { Field } from '../field'
import { FormError } from '../form-error'

/** The site's saved funnels (open; rename, delete), and saving the current one (admins). */
export function SavedFunnels({
  ctx,
  saved,
  steps,
  onOpen,
  onSaved,
}: {
  ctx: ReportContext
  saved: Report<Funnel[]>
  /** The steps to offer saving as a new funnel; without them there is no "Save funnel" form. */
  steps?: FunnelStep[]
  onOpen(funnel: Funnel): void
  onSaved(funnel: Funnel): void
}) {
  const save = useAction()
  const remove = useAction()
  const rename = useAction()
  const [name, setName] = useState('')
  const [renaming, setRenaming] = useState<number>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!steps) return
    let created: Funnel | undefined
    if (await save.run(async () => (created = await ctx.reports.createFunnel({ name, steps })))) {
      setName('')
      if (created) onSaved(created)
      saved.reload()
    }
  }
  return (
    <section className="card" aria-labelledby="saved-funnels-title">
      <h2 id="saved-funnels-title">Saved funnels</h2>
      <FormError error={saved.error ?? remove.error} />
      {saved.data?.length === 0 && <p className="muted">No saved funnels yet.</p>}
      {saved.data && saved.data.length > 0 && (
        <ul className="saved-funnels">
          {saved.data.map((funnel) =>
            renaming === funnel.funnelId ? (
              <li key={funnel.funnelId}>
                <RenameFunnel
                  funnel={funnel}
                  action={rename}
                  onRename={async (next) => {
                    if (await rename.run(() => ctx.reports.updateFunnel(funnel.funnelId, { name: next }))) {
                      setRenaming(undefined)
                      saved.reload()
                    }
                  }}
                  onCancel={() => {
                    rename.clear()
                    setRenaming(undefined)
                  }}
                />
              </li>
            ) : (
              <li key={funnel.funnelId} className="toolbar-row">
                <button type="button" className="link-button" onClick={() => onOpen(funnel)}>
                  {funnel.name}
                </button>
                <span className="muted small">{funnel.steps.length} steps</span>
                {ctx.canAdmin && (
                  <button
                    type="button"
                    className="button button-small button-secondary"
                    aria-label={`Rename ${funnel.name}`}
                    onClick={() => {
                      rename.clear()
                      setRenaming(funnel.funnelId)
                    }}
                  >
                    Rename
                  </button>
                )}
                {ctx.canAdmin && (
                  <button
                    type="button"
                    className="button button-small button-danger-quiet"
                    disabled={remove.busy}
                    onClick={async () => {
                      if (await remove.run(() => ctx.reports.deleteFunnel(funnel.funnelId))) saved.reload()
                    }}
                  >
                    Delete
                  </button>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {ctx.canAdmin && steps && (
        <form className="toolbar-row" onSubmit={submit} aria-label="Save funnel">
          <input
            aria-label="Funnel name"
            placeholder="Name of this funnel"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
          />
          <button type="submit" className="button button-secondary" disabled={save.busy}>
            Save funnel
          </button>
        </form>
      )}
      <FormError error={save.error} />
    </section>
  )
}

/** The rename form of one saved funnel; the server's messages show at the name. */
function RenameFunnel({
  funnel,
  action,
  onRename,
  onCancel,
}: {
  funnel: Funnel
  action: Action
  onRename(name: string): void
  onCancel(): void
}) {
  const [name, setName] = useState(funnel.name)
  return (
    <form
      aria-label={`Rename ${funnel.name}`}
      onSubmit={(event) => {
        event.preventDefault()
        onRename(name)
      }}
    >
      <FormError error={action.error} />
      <Field label="New name" errors={action.error?.field('name')}>
        {(control) => <input {...control} value={name} onChange={(e) => setName(e.target.value)} required />}
      </Field>
      <div className="toolbar-row">
        <button type="submit" className="button button-small button-primary" disabled={action.busy}>
          Save name
        </button>
        <button type="button" className="button button-small button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
