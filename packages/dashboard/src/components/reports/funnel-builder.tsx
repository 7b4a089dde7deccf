/**
 * The funnel builder: 2 to 10 steps, each a page (a path, or a prefix ending in `*`), scrolling such a
 * page to a depth (percent) or a custom event
 * (optionally with one property value), picked from the site's pages, event names and the property
 * keys seen on the step's event (`propertyKeys`), or typed.
 * Applying hands the steps to the page; the server validates them. With `update` (a saved funnel is
 * open and the user may change it), "Update funnel" saves the steps as typed over that funnel, and the
 * server's messages show at the steps they name.
 */
import type { FunnelStep } from '@pathlight/protocol'
import { type FormEvent, useId, useState } from 'react'
import type { ApiError } from '../../api/api-error'
import { draftOf, emptyStep, type StepDraft, stepErrors, stepOf } from '../../lib/funnel-steps'
import type { PropertyKeyLoader } from '../../lib/property-key-loader'
import { FieldErrors } from '../field'
import { FormError } from '../form-error'
import { PropertyKeyList } from './property-key-list'

const MAX_STEPS = 10
const MIN_STEPS = 2

/** Saving the builder's steps over an open saved funnel. */
export interface FunnelUpdate {
  /** The saved funnel's name. */
  name: string
  busy: boolean
  error: ApiError | undefined
  run(steps: FunnelStep[]): void
}

/** The builder, starting from `steps` (two empty page steps when none). */
export function FunnelBuilder({
  steps,
  pages,
  eventNames,
  propertyKeys,
  onApply,
  update,
}: {
  steps?: FunnelStep[]
  pages: string[]
  eventNames: string[]
  /** The property keys an event step's property input suggests (none: it suggests nothing). */
  propertyKeys?: PropertyKeyLoader
  onApply(steps: FunnelStep[]): void
  update?: FunnelUpdate
}) {
  const [drafts, setDrafts] = useState<StepDraft[]>(() =>
    steps && steps.length > 0 ? steps.map(draftOf) : [emptyStep(), emptyStep()],
  )
  const id = useId()
  const change = (index: number, patch: Partial<StepDraft>) =>
    setDrafts((all) => all.map((d, i) => (i === index ? { ...d, ...patch } : d)))
  const apply = (event: FormEvent) => {
    event.preventDefault()
    onApply(drafts.map(stepOf))
  }
  const fieldErrors = update?.error?.fieldErrors
  const listErrors = update?.error?.field('steps')
  return (
    <form className="card funnel-builder" onSubmit={apply} aria-label="Funnel steps">
      <h2>Steps</h2>
      {update && (
        <p className="muted">
          Saved funnel <strong>{update.name}</strong>: change its steps here, then update it.
        </p>
      )}
      {update && <FormError error={update.error} />}
      <datalist id={`${id}-pages`}>
        {pages.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <datalist id={`${id}-events`}>
        {eventNames.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <ol className="funnel-steps-edit">
        {drafts.map((draft, i) => {
          const errors = stepErrors(fieldErrors, i)
          const errorId = errors.length > 0 ? `${id}-step-${i}-error` : undefined
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps are positions; two may be alike
            <li key={i} className="toolbar-row">
              <span className="funnel-step-number">{i + 1}</span>
              <select
                aria-label={`Step ${i + 1} kind`}
                value={draft.type}
                onChange={(e) => change(i, { type: e.target.value as StepDraft['type'] })}
              >
                <option value="path">Page</option>
                <option value="scroll">Scrolled page</option>
                <option value="event">Event</option>
              </select>
              <input
                aria-label={draft.type === 'event' ? `Step ${i + 1} event name` : `Step ${i + 1} page`}
                list={draft.type === 'event' ? `${id}-events` : `${id}-pages`}
                placeholder={draft.type === 'event' ? 'signup' : '/pricing or /blog/*'}
                value={draft.target}
                onChange={(e) => change(i, { target: e.target.value })}
                required
                aria-describedby={errorId}
                aria-invalid={errorId ? true : undefined}
              />
              {draft.type === 'scroll' && (
                <input
                  aria-label={`Step ${i + 1} scroll depth (%)`}
                  type="number"
                  min={1}
                  max={100}
                  step={1}
                  required
                  value={draft.scrollDepth ?? '75'}
                  onChange={(e) => change(i, { scrollDepth: e.target.value })}
                />
              )}
              {draft.type === 'event' && (
                <>
                  <input
                    aria-label={`Step ${i + 1} property`}
                    placeholder="property (optional)"
                    list={propertyKeys && `${id}-keys-${i}`}
                    value={draft.propertyKey}
                    onChange={(e) => change(i, { propertyKey: e.target.value })}
                  />
                  {propertyKeys && (
                    <PropertyKeyList id={`${id}-keys-${i}`} loader={propertyKeys} eventName={draft.target} />
                  )}
                  <input
                    aria-label={`Step ${i + 1} property value`}
                    placeholder="value"
                    value={draft.propertyValue}
                    onChange={(e) => change(i, { propertyValue: e.target.value })}
                  />
                </>
              )}
              <button
                type="button"
                className="button button-small button-danger-quiet"
                disabled={drafts.length <= MIN_STEPS}
                onClick={() => setDrafts((all) => all.filter((_, j) => j !== i))}
                aria-label={`Remove step ${i + 1}`}
              >
                Remove
              </button>
              {errorId && <FieldErrors id={errorId} errors={errors} />}
            </li>
          )
        })}
      </ol>
      {listErrors && <FieldErrors id={`${id}-steps-error`} errors={listErrors} />}
      <div className="toolbar-row">
        <button
          type="button"
          className="button button-secondary"
          disabled={drafts.length >= MAX_STEPS}
          onClick={() => setDrafts((all) => [...all, emptyStep()])}
        >
          Add step
        </button>
        <button type="submit" className="button button-primary">
          Show funnel
        </button>
        {update && (
          <button
            type="button"
            className="button button-secondary"
            disabled={update.busy}
            onClick={(e) => {
              if (e.currentTarget.form?.reportValidity()) update.run(drafts.map(stepOf))
            }}
          >
            Update funnel
          </button>
        )}
      </div>
    </form>
  )
}
