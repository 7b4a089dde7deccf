/**
 * Funnel steps in the dashboard: the editable draft of a step (strings as typed), the step it stands
 * for, a label for each, and the `steps` / `show` URL parameters of the funnels page (steps as JSON;
 * `show` the sessions listed: '2' those that reached step 2, '2-dropped' those that reached it and not
 * step 3; either followed by ':<value>' for only the sessions of one breakdown value, e.g. '2:/pricing',
 * '2-dropped:' for the empty value). Anything malformed in the URL reads as absent.
 */
import type { FunnelStep } from '@pathlight/protocol'

/** A step as the builder edits it ('scroll': a path step with a scroll depth). */
export interface StepDraft {
  type: 'path' | 'scroll' | 'event'
  /** Path pattern or event name. */
  target: string
  propertyKey: string
  propertyValue: string
  /** A scroll step's depth in percent, as typed (absent: 75). */
  scrollDepth?: string
}

export const emptyStep = (type: StepDraft['type'] = 'path'): StepDraft => ({
  type,
  target: '',
  propertyKey: '',
  propertyValue: '',
})

/** The draft of a step. */
export function draftOf(step: FunnelStep): StepDraft {
  if (step.type === 'path') {
    return step.scrollDepth === undefined
      ? { ...emptyStep('path'), target: step.pathPattern }
      : { ...emptyStep('scroll'), target: step.pathPattern, scrollDepth: String(step.scrollDepth) }
  }
  return {
    type: 'event',
    target: step.eventName,
    propertyKey: step.eventPropertyKey ?? '',
    propertyValue: step.eventPropertyValue === undefined ? '' : String(step.eventPropertyValue),
  }
}

/**
 * The step a draft stands for: an empty property key leaves the property out; a property value that
 * is a plain decimal number is sent as a number (it matches the number and its text alike); a scroll
 * step's depth is sent as a number when it is one, else as typed for the server to name it.
 */
export function stepOf(draft: StepDraft): FunnelStep {
  const target = draft.target.trim()
  if (draft.type === 'path') return { type: 'path', pathPattern: target }
  if (draft.type === 'scroll') {
    const text = (draft.scrollDepth ?? '75').trim()
    const depth = /^\d+$/.test(text) ? Number(text) : (text as unknown as number)
    return { type: 'path', pathPattern: target, scrollDepth: depth }
  }
  const key = draft.propertyKey.trim()
  if (key === '') return { type: 'event', eventName: target }
  const text = draft.propertyValue.trim()
  const value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
  return { type: 'event', eventName: target, eventPropertyKey: key, eventPropertyValue: value }
}

/** The `steps` URL parameter of a funnel. */
export const encodeSteps = (steps: FunnelStep[]): string => JSON.stringify(steps)

/** The steps of a `steps` URL parameter, or undefined when it is not a list of steps. */
export function decodeSteps(value: string | undefined): FunnelStep[] | undefined {
  if (!value) return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined
    const valid = parsed.every(
      (s) =>
        typeof s === 'object' &&
        s !== null &&
        ((s.type === 'path' && typeof s.pathPattern === 'string') ||
          (s.type === 'event' && typeof s.eventName === 'string')),
    )
    return valid ? (parsed as FunnelStep[]) : undefined
  } catch {
    return undefined
  }
}

/** Which sessions a `show` URL parameter lists. */
export interface ShowSelection {
  step: number
  outcome: 'reached' | 'dropped'
  /** Only the sessions with this value of the breakdown parameter. */
  value?: string
}

/** Which sessions a `show` URL parameter lists, or undefined. */
export function parseShow(value: string | undefined): ShowSelection | undefined {
  const match = value?.match(/^(\d{1,2})(-dropped)?(?::([\s\S]*))?$/)
  if (!match) return undefined
  return {
    step: Number(match[1]),
    outcome: match[2] ? 'dropped' : 'reached',
    ...(match[3] === undefined ? {} : { value: match[3] }),
  }
}

/** The `show` URL parameter of a selection (`value`: one breakdown value's sessions only). */
export const showOf = (step: number, outcome: 'reached' | 'dropped', value?: string): string =>
  `${outcome === 'dropped' ? `${step}-dropped` : String(step)}${value === undefined ? '' : `:${value}`}`

/**
 * The server's messages for step `index` (0-based) of a funnel body: its `steps.<index>` field errors
 * and those of the step's own fields ('steps.1.pathPattern').
 */
export function stepErrors(fieldErrors: Record<string, string[]> | undefined, index: number): string[] {
  if (!fieldErrors) return []
  const prefix = `steps.${index}`
  return Object.entries(fieldErrors)
    .filter(([key]) => key === prefix || key.startsWith(`${prefix}.`))
    .flatMap(([, messages]) => messages)
}
