/** Create or edit a webhook: URL, a description, the events it receives and (editing) whether it is on. */
import type { WebhookEventType, WebhookInput } from '@pathlight/protocol'
import { webhookEventTypes } from '@pathlight/protocol/enums'
import { useId, useState } from 'react'
import type { ApiError } from '../api/api-error'
import { webhookUrlErrors, webhookUrlHint } from '../lib/webhook-url-text'
import { CheckboxField } from './checkbox-field'
import { Field, FieldErrors } from './field'
import { FormError } from './form-error'

export const webhookEventLabels: Record<WebhookEventType, string> = {
  'session.created': 'A visitor starts a session',
  'event.tracked': 'A custom event is tracked',
  'goal.converted': 'A visitor completes a goal',
  'alert.triggered': 'An alert is triggered',
}

export interface WebhookFormProps {
  initial?: WebhookInput
  submitLabel: string
  busy: boolean
  error: ApiError | undefined
  onSubmit: (input: WebhookInput) => void
  onCancel?: () => void
}

/** The webhook form; with `initial` it edits (and offers Enabled), without it creates. */
export function WebhookForm({ initial, submitLabel, busy, error, onSubmit, onCancel }: WebhookFormProps) {
  const [url, setUrl] = useState(initial?.url ?? '')
  const [description, setDescription] = useState(initial?.description ?? '')
  const [events, setEvents] = useState<WebhookEventType[]>(initial?.events ?? ['session.created'])
  const [enabled, setEnabled] = useState(initial?.enabled ?? true)
  const eventsErrorId = useId()
  const eventErrors = error?.field('events')
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((e) => e !== type)))
  return (
    <form
      className="webhook-form"
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit({ url, description, events, ...(initial ? { enabled } : {}) })
      }}
    >
      <FormError error={error} />
      <Field label="Endpoint URL" hint={webhookUrlHint} errors={webhookUrlErrors(error?.field('url'))}>
        {(control) => (
          <input
            {...control}
            type="url"
            required
            placeholder="https://example.com/hooks/pathlight"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field label="Description (optional)" errors={error?.field('description')}>
        {(control) => (
          <input
            {...control}
            maxLength={500}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <fieldset
        className="group"
        aria-describedby={eventErrors ? eventsErrorId : undefined}
        aria-invalid={eventErrors ? true : undefined}
      >
        <legend>Events</legend>
        {webhookEventTypes.map((type) => (
          <CheckboxField
            key={type}
            label={type}
            description={webhookEventLabels[type]}
            checked={events.includes(type)}
            onChange={(on) => toggle(type, on)}
          />
        ))}
        {eventErrors && <FieldErrors id={eventsErrorId} errors={eventErrors} />}
      </fieldset>
      {initial && (
        <CheckboxField
          label="Enabled"
          description="Turning a webhook back on also clears an automatic disable."
          checked={enabled}
          onChange={setEnabled}
        />
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
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
