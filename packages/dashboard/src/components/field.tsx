/**
 * A labelled form control with its hint and errors. The control gets an id, `aria-describedby`
 * naming the error and hint, and `aria-invalid` while it has errors.
 */
import { type ReactNode, useId } from 'react'

export interface ControlProps {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
}

export interface FieldProps {
  label: string
  /** Keep the label for assistive technology only (a heading just above already says it). */
  labelHidden?: boolean
  hint?: ReactNode
  /** The server's messages for this field. */
  errors?: string[]
  children: (control: ControlProps) => ReactNode
}

/** Render `children(control)` under its label, followed by its errors and hint. */
export function Field({ label, labelHidden, hint, errors, children }: FieldProps) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = errors && errors.length > 0 ? `${id}-error` : undefined
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined
  return (
    <div className={errorId ? 'field field-invalid' : 'field'}>
      <label htmlFor={id} className={labelHidden ? 'visually-hidden' : undefined}>
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': errorId ? true : undefined })}
      {errorId && <FieldErrors id={errorId} errors={errors ?? []} />}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
    </div>
  )
}

/** The messages of one field (or group of fields), under an id that controls name in aria-describedby. */
export function FieldErrors({ id, errors }: { id: string; errors: string[] }) {
  return (
    <div id={id} className="field-errors">
      {errors.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  )
}
