/** A row of toggle buttons choosing one option (tabs of a card, a chart's metric or bucket). */

export interface SegmentedOption {
  value: string
  label: string
}

/** `aria-pressed` marks the chosen option; `label` (the group's legend) names it for assistive technology. */
export function Segmented({
  label,
  options,
  value,
  onChange,
}: {
  label: string
  options: SegmentedOption[]
  value: string
  onChange(value: string): void
}) {
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">{label}</legend>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  )
}
