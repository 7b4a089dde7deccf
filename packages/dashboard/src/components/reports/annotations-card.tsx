/**
 * The annotations of the overview's range under its chart: each annotated day with its text, and for
 * admins and owners a form to write one and a delete button on each (`POST`/`DELETE
 * /api/sites/{siteId}/annotations`, through `client()`). The chart marks the same days.
 */
import type { Annotation } from '@pathlight/protocol'
import { type FormEvent, useState } from 'react'
import { formatDay } from '../../lib/dates'
import { useAction } from '../../lib/use-action'
import type { Resource } from '../../lib/use-resource'
import type { ReportContext } from '../../pages/report-context'
import { ConfirmButton } from '../confirm-button'
import { FormError } from '../form-error'

/** The list of `annotations` (the range's) and, for admins, writing and deleting them. */
export function AnnotationsCard({
  ctx,
  annotations,
}: {
  ctx: ReportContext
  annotations: Resource<Annotation[]>
}) {
  const mayWrite = ctx.canAdmin && !ctx.shared
  const list = annotations.data ?? []
  if (list.length === 0 && !mayWrite) return null
  const remove = async (id: number) => {
    await ctx.reports.deleteAnnotation(id)
    annotations.setData((current) => (current ?? []).filter((a) => a.id !== id))
  }
  return (
    <div className="annotations" data-testid="annotations">
      <FormError error={annotations.error} />
      {list.length > 0 && (
        <ul className="annotation-list" aria-label="Annotations">
          {list.map((a) => (
            <li key={a.id}>
              <span className="annotation-date">{formatDay(a.date)}</span> <span>{a.text}</span>
              {mayWrite && (
                <ConfirmButton
                  label="Delete"
                  question={`Delete the note of ${formatDay(a.date)}?`}
                  onConfirm={() => remove(a.id)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {mayWrite && <AnnotationForm ctx={ctx} annotations={annotations} />}
    </div>
  )
}

/** Write an annotation: a day of the range (default its last) and a text. */
function AnnotationForm({ ctx, annotations }: { ctx: ReportContext; annotations: Resource<Annotation[]> }) {
  const [date, setDate] = useState(ctx.query.endDate)
  const [text, setText] = useState('')
  const save = useAction()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    let written: Annotation | undefined
    const done = await save.run(async () => {
      written = await ctx.reports.createAnnotation({ date, text })
    })
    if (!done || !written) return
    const added = written
    setText('')
    annotations.setData((current) =>
      [...(current ?? []), added].sort((a, b) =>
        a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1,
      ),
    )
  }
  return (
    <form className="annotation-form" onSubmit={submit} aria-label="Add an annotation">
      <label className="inline-field">
        <span>Day</span>
        <input type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
      </label>
      <label className="inline-field annotation-text">
        <span>Note</span>
        <input
          type="text"
          required
          maxLength={500}
          value={text}
          placeholder="Launch, outage, campaign…"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit" className="button button-secondary button-small" disabled={save.busy}>
        Add note
      </button>
      <FormError error={save.error} />
    </form>
  )
}
