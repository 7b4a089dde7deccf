/**
 * Funnel bodies on the server: the schemas are the protocol's (`funnel-input.ts`: fields, bounds and
 * messages), parsed by the routes. Here a parsed body becomes what is stored: each step with its
 * optional fields present only when given, and an update applied to the stored funnel (`steps`
 * replaced whole).
 */
import type { CreateFunnelBody, FunnelStepBody, UpdateFunnelBody } from '@pathlight/protocol'
import type { FunnelStep } from './funnel.js'

export { MAX_FUNNEL_NAME } from '@pathlight/protocol'

/** A validated funnel: its name and steps. */
export interface FunnelInput {
  name: string
  steps: FunnelStep[]
}

/** The funnel a parsed create body describes. */
export function toFunnelInput(body: CreateFunnelBody): FunnelInput {
  return { name: body.name, steps: toFunnelSteps(body.steps) }
}

/** The funnel after a parsed update body: the fields sent replace the stored ones. */
export function applyFunnelUpdate(current: FunnelInput, update: UpdateFunnelBody): FunnelInput {
  return {
    name: update.name ?? current.name,
    steps: update.steps === undefined ? current.steps : toFunnelSteps(update.steps),
  }
}

/** Parsed steps as stored and answered: each step's optional fields present only when given. */
export function toFunnelSteps(steps: readonly FunnelStepBody[]): FunnelStep[] {
  return steps.map((input) => {
    const name = input.name === undefined ? {} : { name: input.name }
    if (input.type === 'path') {
      const depth = input.scrollDepth === undefined ? {} : { scrollDepth: input.scrollDepth }
      return { type: 'path', ...name, pathPattern: input.pathPattern, ...depth }
    }
    return {
      type: 'event',
      ...name,
      eventName: input.eventName,
      ...(input.eventPropertyKey === undefined ? {} : { eventPropertyKey: input.eventPropertyKey }),
      ...(input.eventPropertyValue === undefined ? {} : { eventPropertyValue: input.eventPropertyValue }),
    }
  })
}
