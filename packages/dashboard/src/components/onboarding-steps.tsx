/** Where a new user is in getting started: organization, site, tracking script. */
const steps = ['Create an organization', 'Add a site', 'Install the tracking script'] as const

/** The three steps, `current` highlighted (`aria-current="step"`), earlier ones ticked. */
export function OnboardingSteps({ current }: { current: 1 | 2 | 3 }) {
  return (
    <ol className="steps" aria-label="Getting started">
      {steps.map((label, i) => {
        const n = i + 1
        const state = n < current ? 'done' : n === current ? 'current' : 'todo'
        return (
          <li
            key={label}
            className={`step step-${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="step-number" aria-hidden="true">
              {n < current ? '✓' : n}
            </span>
            {label}
            {state === 'done' && <span className="visually-hidden"> (done)</span>}
          </li>
        )
      })}
    </ol>
  )
}
