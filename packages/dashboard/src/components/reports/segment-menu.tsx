/**
 * The saved segment of a report: a menu of the segments the reader sees (the selected one is the
 * URL's `segment`, so a view with a segment reloads and shares as it is), "Save as segment" for the
 * current filters (with the selected segment's), and deleting the selected one where the reader may.
 * Segments are named filters of the site (`GET/POST/DELETE /api/sites/{siteId}/segments`): personal
 * ones are their creator's, shared ones every reader's and changed by admins and owners.
 */
import type { Segment, SegmentVisibility } from '@pathlight/protocol'
import { type FormEvent, useState } from 'react'
import { useAction } from '../../lib/use-action'
import { useResource } from '../../lib/use-resource'
import type { ReportContext } from '../../pages/report-context'
import { FormError } from '../form-error'

/** The segment picker, and for members the save and delete actions. */
export function SegmentMenu({ ctx }: { ctx: ReportContext }) {
  const { view, setView, reports, siteId, shared, canAdmin } = ctx
  const list = useResource(`segments:${siteId}`, () => reports.segments())
  const [saving, setSaving] = useState(false)
  const remove = useAction()
  const segments = list.data ?? []
  const selected = segments.find((s) => s.segmentId === view.segment)
  const mayDelete = !shared && selected !== undefined && (selected.visibility === 'personal' || canAdmin)

  const choose = (value: string) =>
    setView({ ...view, segment: value === '' ? undefined : Number(value), page: undefined })
  const saved = (segment: Segment) => {
    setSaving(false)
    list.setData((current) => [...(current ?? []), segment])
    setView({ ...view, filters: [], segment: segment.segmentId, page: undefined })
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
      {mayDelete && (
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
