/**
 * A choice of one among a few options, each with a one-line description: a fieldset named by its
 * legend, one radio per option (its label its name, its description linked by `aria-describedby`),
 * and the server's errors for the choice under it (named by the fieldset's `aria-describedby`).
 */
import { useId } from 'react'
import { FieldErrors } from './field'

export interface RadioOption<V extends string> {
  value: V
  label: string
  description?: string
}

export interface RadioGroupProps<V extends string> {
  legend: string
  options: readonly RadioOption<V>[]
  value: V
  onChange: (value: V) => void
  /** The server's messages for this choice. */
  errors?: string[]
}

/** `options` as radios under `legend`; `value` is checked. */
export function RadioGroup<V extends string>({
  legend,
  options,
  value,
  onChange,
  errors,
}: RadioGroupProps<V>) {
  const id = useId()
  const errorId = errors && errors.length > 0 ? `${id}-error` : undefined
  return (
    <fieldset className="radio-group" aria-describedby={errorId}>
      <legend>{legend}</legend>
      {options.map((option) => {
        const optionId = `${id}-${option.value}`
        const descriptionId = option.description ? `${optionId}-description` : undefined
        return (
          <div className="check" key={option.value}>
            <input
              id={optionId}
              type="radio"
              name={id}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              aria-describedby={descriptionId}
            />
            <div>
              <label htmlFor={optionId}>{option.label}</label>
              {option.description && (
                <p id={descriptionId} className="hint">
                  {option.description}
                </p>
              )}
            </div>
          </div>
        )
      })}
      {errorId && <FieldErrors id={errorId} errors={errors ?? []} />}
    </fieldset>
  )
}
