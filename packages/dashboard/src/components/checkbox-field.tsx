/** A checkbox with its label and an optional description linked by `aria-describedby`. */
import { type ReactNode, useId } from 'react'

export interface CheckboxFieldProps {
  label: string
  description?: ReactNode
  checked: boolean
  onChange: (checked: boolean) => void
  disabled?: boolean
  errors?: string[]
}

/** A labelled checkbox; `errors` are shown under it and named by its `aria-describedby`. */
export function CheckboxField({
  label,
  description,
  checked,
  onChange,
  disabled,
  errors,
}: CheckboxFieldProps) {
  const id = useId()
  const descriptionId = description ? `${id}-description` : undefined
  const errorId = errors && errors.length > 0 ? `${id}-error` : undefined
  return (
    <div className="check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={[errorId, descriptionId].filter(Boolean).join(' ') || undefined}
        aria-invalid={errorId ? true : undefined}
      />
      <div>
        <label htmlFor={id}>{label}</label>
        {description && (
          <p id={descriptionId} className="hint">
            {description}
          </p>
        )}
        {errorId && (
          <p id={errorId} className="field-errors">
            {errors?.join(' ')}
          </p>
        )}
      </div>
    </div>
  )
}
