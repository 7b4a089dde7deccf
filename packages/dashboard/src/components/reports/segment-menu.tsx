/**
 * The saved segment of a report: a menu of the segments the reader sees (the selected one is the
 * URL's `segment`, so a view with a segment reloads and shares as it is), the selected segment's filters
 * as read-only chips, "Save as segment" for the current filters (with the selected segment's), and,
 * where the reader may change the selected one, "Edit segment" and "Delete segment". Editing turns the
 * segment's filters into the view's own, removable and addable as any filter, until "Update segment"
 * saves them as the segment's (or "Cancel" goes back to the segment as it was).
 * Segments are named filters of the site (`GET/POST/DELETE /api/sites/{siteId}/segments`): personal
 * ones are their creator's, shared ones every reader's and changed by admins and owners.
 */
import type { ReportFilter, Segment, SegmentVisibility } from '@pathlight/protocol'
import { type FormEvent, useState } from 'react'
import { filterText } from '../../lib/report-labels'
import { toReportFilters } from '../../lib/report-view'
import { useAction } from '../../lib/use-action'
import { useResource } from '../../lib/use-resource'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'

/** The segment picker, and for members the save and delete actions. */
export function SegmentMenu({ ctx }: { ctx: ReportContext }) {
  const { view, setView, reports, siteId, shared, canAdmin } = ctx
  const list = useResource(`segments:${siteId}`, () => reports.segments())
  const [saving, setSaving] = useState(false)
  // The segment being edited, with the view's own filters of before (Cancel brings them back).
  const [editing, setEditing] = useState<{ segment: Segment; filters: ReportFilter[] }>()
  const remove = useAction()
  const update = useAction()
  const segments = list.data ?? []
  const selected = segments.find((s) => s.segmentId === view.segment)
  const mayChange = !shared && selected !== undefined && (selected.visibility === 'personal' || canAdmin)
  // Editing lasts while no segment is chosen; choosing one (the menu, Back) ends it.
  const edited = editing && view.segment === undefined ? editing.segment : undefined

  const choose = (value: string) =>
    setView({ ...view, segment: value === '' ? undefined : Number(value), page: undefined })
  const saved = (segment: Segment) => {
    setSaving(false)
    list.setData((current) => [...(current ?? []), segment])
    setView({ ...view, filters: [], segment: segment.segmentId, page: undefined })
  }
  const startEditing = () => {
    if (!selected) return
    setSaving(false)
    setEditing({ segment: selected, filters: view.filters })
    setView({
      ...view,
      segment: undefined,
      filters: [...toReportFilters(selected.filters), ...view.filters],
      page: undefined,
    })
  }
  const cancelEditing = () => {
    if (!edited || !editing) return
    setEditing(undefined)
    update.clear()
    setView({ ...view, segment: edited.segmentId, filters: editing.filters, page: undefined })
  }
  const saveEditing = async () => {
    if (!edited) return
    let changed: Segment | undefined
    const done = await update.run(async () => {
      changed = await reports.updateSegment(edited.segmentId, { filters: view.filters })
    })
    if (!done || !changed) return
    const after = changed
    setEditing(undefined)
    list.setData((current) => (current ?? []).map((s) => (s.segmentId === after.segmentId ? after : s)))
    setView({ ...view, segment: after.segmentId, filters: [], page: undefined })
  }
  const deleteSelected = async () => {
    if (!selected) return
    const done = await remove.run(() => reports.deleteSegment(selected.segmentId))
    if (!done) return
    list.setData((current) => (current ?? []).filter((s) => s.segmentId !== selected.segmentId))
    setView({ ...view, segment: undefined, page: undefined })
  }

  if (segments.length === 0 && view.segment === undefined && (shared || view.filters.length === 0))
    return null
  if (edited) {
    return (
      <div className="toolbar-row segment-menu">
        <p className="segment-editing">
          Editing the segment <strong>{edited.name}</strong>: change the filters below, then
        </p>
        <button
          type="button"
          className="button button-primary button-small"
          disabled={update.busy || view.filters.length === 0}
          onClick={saveEditing}
        >
          Update segment
        </button>
        <button type="button" className="link-button" onClick={cancelEditing}>
          Cancel
        </button>
        <FormError error={update.error} title="Could not update the segment" />
      </div>
    )
  }
  return (
    <div className="toolbar-row segment-menu">
      <label className="inline-field">
        <span>Segment</span>
        <select value={view.segment ?? ''} onChange={(e) => choose(e.target.value)}>
          <option value="">All visitors</option>
          {segments.map((s) => (
            <option key={s.segmentId} value={s.segmentId}>
              {s.visibility === 'personal' ? `${s.name} (personal)` : s.name}
            </option>
          ))}
          {view.segment !== undefined && !selected && (
            <option value={view.segment}>Segment #{view.segment}</option>
          )}
        </select>
      </label>
      {selected && <SegmentChips segment={selected} />}
      {mayChange && (
        <button type="button" className="button button-secondary button-small" onClick={startEditing}>
          Edit segment
        </button>
      )}
      {mayChange && (
        <button
          type="button"
          className="button button-small button-danger-quiet"
          disabled={remove.busy}
          onClick={deleteSelected}
        >
          Delete segment
        </button>
      )}
      {!shared && view.filters.length > 0 && !saving && (
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => setSaving(true)}
        >
          Save as segment
        </button>
      )}
      {saving && (
        <SaveSegmentForm
          ctx={ctx}
          base={selected}
          onSaved={saved}
          onCancel={() => setSaving(false)}
          canShare={canAdmin}
        />
      )}
      <FormError error={remove.error} title="Could not delete the segment" />
    </div>
  )
}

/** The filters of `segment`, read-only: the view applies them besides its own. */
function SegmentChips({ segment }: { segment: Segment }) {
  return (
    <ul className="filter-chips segment-chips" aria-label={`Conditions of ${segment.name}`}>
      {toReportFilters(segment.filters).map((filter) => (
        <li key={`${filter.parameter}:${filter.type}:${filter.value.join(',')}`} className="filter-chip">
          <span>{filterText(filter)}</span>
        </li>
      ))}
    </ul>
  )
}

/** Name and visibility of a new segment holding `base`'s filters and the view's. */
function SaveSegmentForm({
  ctx,
  base,
  canShare,
  onSaved,
  onCancel,
}: {
  ctx: ReportContext
  base: Segment | undefined
  canShare: boolean
  onSaved(segment: Segment): void
  onCancel(): void
}) {
  const [name, setName] = useState('')
  const [visibility, setVisibility] = useState<SegmentVisibility>('personal')
  const save = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const filters = [...(base?.filters ?? []), ...ctx.view.filters]
    let created: Segment | undefined
    const done = await save.run(async () => {
      created = await ctx.reports.createSegment({ name, filters, visibility })
    })
    if (done && created) onSaved(created)
  }
  return (
    <form className="custom-range segment-form" onSubmit={submit} aria-label="Save as segment">
      <label className="inline-field">
        <span>Name</span>
        <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="inline-field">
        <span>Seen by</span>
        <select value={visibility} onChange={(e) => setVisibility(e.target.value as SegmentVisibility)}>
          <option value="personal">Only me</option>
          {canShare && <option value="site">Site readers</option>}
        </select>
      </label>
      <button type="submit" className="button button-small" disabled={save.busy}>
        Save
      </button>
      <button type="button" className="link-button" onClick={onCancel}>
        Cancel
      </button>
      <FormError error={save.error} title="Could not save the segment" />
    </form>
  )
}
