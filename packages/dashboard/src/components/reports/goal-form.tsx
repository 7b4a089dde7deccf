/**
 * Create or edit a goal: visiting a page (a path, or a prefix ending in `*`), scrolling such a page to
 * a depth (a path goal with `scrollDepth`, 1-100 %) or firing a custom event (optionally with one
 * property value). With `suggestions`, the event name and property key inputs
 * list the event names and the keys seen in the range (any text is still taken). The server validates;
 * its messages appear under the fields.
 */
import type { GoalInput } from '@pathlight/protocol'
import { useId, useState } from 'react'
import type { ApiError } from '../../api/api-error'
import type { PropertyKeyLoader } from '../../lib/property-key-loader'
import { Field } from '../field'
import { FormError } from '../form-error'
import { PropertyKeyList } from './property-key-list'

/** The form's fields as typed (strings), whatever the goal type; 'scroll' is a path goal with a depth. */
export interface GoalDraft {
  name: string
  goalType: 'path' | 'scroll' | 'event'
  pathPattern: string
  scrollDepth: string
  eventName: string
  propertyKey: string
  propertyValue: string
}

export const emptyGoal: GoalInput = { name: '', goalType: 'path', config: { pathPattern: '' } }

function draftOf(goal: GoalInput): GoalDraft {
  const base = {
    name: goal.name,
    pathPattern: '',
    scrollDepth: '75',
    eventName: '',
    propertyKey: '',
    propertyValue: '',
  }
  if (goal.goalType === 'path') {
    const { pathPattern, scrollDepth } = goal.config
    return scrollDepth === undefined
      ? { ...base, goalType: 'path', pathPattern }
      : { ...base, goalType: 'scroll', pathPattern, scrollDepth: String(scrollDepth) }
  }
  return {
    ...base,
    goalType: 'event',
    eventName: goal.config.eventName,
    propertyKey: goal.config.eventPropertyKey ?? '',
    propertyValue: goal.config.eventPropertyValue === undefined ? '' : String(goal.config.eventPropertyValue),
  }
}

/**
 * The goal a draft describes; an empty property key leaves the property condition out. A depth that is
 * not a number is sent as typed, for the server to name it.
 */
export function goalOf(draft: GoalDraft): GoalInput {
  if (draft.goalType === 'path') {
    return { name: draft.name, goalType: 'path', config: { pathPattern: draft.pathPattern.trim() } }
  }
  if (draft.goalType === 'scroll') {
    const text = draft.scrollDepth.trim()
    const depth = /^\d+$/.test(text) ? Number(text) : (text as unknown as number)
    return {
      name: draft.name,
      goalType: 'path',
      config: { pathPattern: draft.pathPattern.trim(), scrollDepth: depth },
    }
  }
  const key = draft.propertyKey.trim()
  return {
    name: draft.name,
    goalType: 'event',
    config: {
      eventName: draft.eventName.trim(),
      ...(key ? { eventPropertyKey: key, eventPropertyValue: draft.propertyValue } : {}),
    },
  }
}

/** What the event goal's inputs suggest: the range's event names and property keys. */
export interface GoalSuggestions {
  eventNames: readonly string[]
  propertyKeys: PropertyKeyLoader
}

export interface GoalFormProps {
  initial: GoalInput
  suggestions?: GoalSuggestions
  submitLabel: string
  busy: boolean
  error: ApiError | undefined
  onSubmit(goal: GoalInput): void
  onCancel?: () => void
}

/** The goal form. */
export function GoalForm({
  initial,
  suggestions,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: GoalFormProps) {
  const listId = useId()
  const [draft, setDraft] = useState(() => draftOf(initial))
  const set = <K extends keyof GoalDraft>(key: K, value: GoalDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }))
  return (
    <form
      className="goal-form"
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit(goalOf(draft))
      }}
    >
      <FormError error={error} />
      <Field label="Goal name" errors={error?.field('name')}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={100}
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
          />
        )}
      </Field>
      <fieldset className="choice">
        <legend>Completed by</legend>
        <label>
          <input
            type="radio"
            name="goalType"
            checked={draft.goalType === 'path'}
            onChange={() => set('goalType', 'path')}
          />{' '}
          Visiting a page
        </label>
        <label>
          <input
            type="radio"
            name="goalType"
            checked={draft.goalType === 'scroll'}
            onChange={() => set('goalType', 'scroll')}
          />{' '}
          Scrolling a page
        </label>
        <label>
          <input
            type="radio"
            name="goalType"
            checked={draft.goalType === 'event'}
            onChange={() => set('goalType', 'event')}
          />{' '}
          A custom event
        </label>
      </fieldset>
      {draft.goalType !== 'event' ? (
        <div className="row">
          <Field
            label="Page path"
            hint="Starts with /. End it with * to match every path that starts with it, e.g. /blog/*"
            errors={error?.field('config.pathPattern')}
          >
            {(control) => (
              <input
                {...control}
                required
                placeholder={draft.goalType === 'scroll' ? '/pricing' : '/thank-you'}
                value={draft.pathPattern}
                onChange={(e) => set('pathPattern', e.target.value)}
              />
            )}
          </Field>
          {draft.goalType === 'scroll' && (
            <Field
              label="Scroll depth (%)"
              hint="Completed when a visitor scrolls the page at least this far, 1 to 100"
              errors={error?.field('config.scrollDepth')}
            >
              {(control) => (
                <input
                  {...control}
                  required
                  type="number"
                  min={1}
                  max={100}
                  step={1}
                  value={draft.scrollDepth}
                  onChange={(e) => set('scrollDepth', e.target.value)}
                />
              )}
            </Field>
          )}
        </div>
      ) : (
        <>
          <Field label="Event name" errors={error?.field('config.eventName')}>
            {(control) => (
              <input
                {...control}
                required
                placeholder="signup"
                list={suggestions && `${listId}-events`}
                value={draft.eventName}
                onChange={(e) => set('eventName', e.target.value)}
              />
            )}
          </Field>
          <div className="row">
            <Field
              label="Property (optional)"
              hint="Only events whose property has this value"
              errors={error?.field('config.eventPropertyKey')}
            >
              {(control) => (
                <input
                  {...control}
                  placeholder="plan"
                  list={suggestions && `${listId}-keys`}
                  value={draft.propertyKey}
                  onChange={(e) => set('propertyKey', e.target.value)}
                />
              )}
            </Field>
            {suggestions && (
              <>
                <datalist id={`${listId}-events`}>
                  {suggestions.eventNames.map((name) => (
                    <option key={name} value={name} />
                  ))}
                </datalist>
                <PropertyKeyList
                  id={`${listId}-keys`}
                  loader={suggestions.propertyKeys}
                  eventName={draft.eventName}
                />
              </>
            )}
            <Field label="Value" errors={error?.field('config.eventPropertyValue')}>
              {(control) => (
                <input
                  {...control}
                  placeholder="pro"
                  value={draft.propertyValue}
                  disabled={draft.propertyKey.trim() === ''}
                  onChange={(e) => set('propertyValue', e.target.value)}
                />
              )}
            </Field>
          </div>
        </>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}
