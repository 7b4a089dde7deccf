import { createGoalEndpoint, updateGoalEndpoint } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { parseBody } from '../http/route.js'
import { AppError } from '../shared/errors.js'
import { type GoalInput, type GoalUpdate, parseGoalUpdate } from './goal-input.js'

/** A create body as the route parses it (the protocol's `goalInput`). */
const parseGoalInput = (body: unknown) => parseBody(createGoalEndpoint, body)
/** An update body as the route parses it, then applied to `current`. */
const applyUpdate = (current: GoalInput, body: unknown) =>
  parseGoalUpdate(current, parseBody(updateGoalEndpoint, body) as GoalUpdate)

function rejection(run: () => unknown) {
  try {
    run()
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return { status: error.status, error: error.message, details: error.details }
  }
  throw new Error('accepted')
}

describe('parseGoalInput', () => {
  it('accepts path and event goals, trimming names and patterns', () => {
    expect(
      parseGoalInput({ name: ' Pricing ', goalType: 'path', config: { pathPattern: ' /pricing ' } }),
    ).toEqual({
      name: 'Pricing',
      goalType: 'path',
      config: { pathPattern: '/pricing' },
    })
    expect(
      (parseGoalInput({ name: 'Blog', goalType: 'path', config: { pathPattern: '/blog/*' } }) as GoalInput)
        .config,
    ).toEqual({
      pathPattern: '/blog/*',
    })
    expect(
      parseGoalInput({
        name: 'Read',
        goalType: 'path',
        config: { pathPattern: '/pricing', scrollDepth: 75 },
      }),
    ).toEqual({ name: 'Read', goalType: 'path', config: { pathPattern: '/pricing', scrollDepth: 75 } })
    expect(parseGoalInput({ name: 'Signup', goalType: 'event', config: { eventName: 'signup' } })).toEqual({
      name: 'Signup',
      goalType: 'event',
      config: { eventName: 'signup' },
    })
    for (const value of ['pro', 3, 0, -2.5, '']) {
      const config = { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: value }
      expect((parseGoalInput({ name: 'x', goalType: 'event', config }) as GoalInput).config).toEqual(config)
    }
  })

  it.each([
    [{ goalType: 'path', config: { pathPattern: '/' } }, 'name', 'name is required'],
    [{ name: '   ', goalType: 'path', config: { pathPattern: '/' } }, 'name', 'name is required'],
    [{ name: 'x'.repeat(101), goalType: 'path', config: { pathPattern: '/' } }, 'name', 'at most 100'],
    [{ name: 7, goalType: 'path', config: { pathPattern: '/' } }, 'name', 'must be a string'],
    [{ name: 'g', config: { pathPattern: '/' } }, 'goalType', 'goalType is required'],
    [{ name: 'g', goalType: 'page', config: { pathPattern: '/' } }, 'goalType', "'path' or 'event'"],
    [{ name: 'g', goalType: 'path' }, 'config', 'config is required'],
    [{ name: 'g', goalType: 'path', config: '/pricing' }, 'config', 'must be an object'],
    [
      { name: 'g', goalType: 'path', config: { pathPattern: 'pricing' } },
      'config.pathPattern',
      "start with '/'",
    ],
    [
      { name: 'g', goalType: 'path', config: { pathPattern: '/a/*/b' } },
      'config.pathPattern',
      "'*' only as its last",
    ],
    [
      { name: 'g', goalType: 'path', config: { pathPattern: `/${'a'.repeat(2048)}` } },
      'config.pathPattern',
      'at most 2048',
    ],
    // goalType and config that do not belong together
    [
      { name: 'g', goalType: 'path', config: { eventName: 'signup' } },
      'config',
      "a path goal's config takes only pathPattern",
    ],
    [
      { name: 'g', goalType: 'event', config: { pathPattern: '/x' } },
      'config',
      "an event goal's config takes only",
    ],
    [
      { name: 'g', goalType: 'path', config: { pathPattern: '/p', scrollDepth: 0 } },
      'config.scrollDepth',
      'from 1 to 100',
    ],
    [
      { name: 'g', goalType: 'path', config: { pathPattern: '/p', scrollDepth: 101 } },
      'config.scrollDepth',
      'from 1 to 100',
    ],
    [
      { name: 'g', goalType: 'path', config: { pathPattern: '/p', scrollDepth: '75' } },
      'config.scrollDepth',
      'from 1 to 100',
    ],
    [
      { name: 'g', goalType: 'event', config: { eventName: 'a', scrollDepth: 75 } },
      'config',
      "an event goal's config takes only",
    ],
    [{ name: 'g', goalType: 'event', config: {} }, 'config.eventName', 'eventName is required'],
    [
      { name: 'g', goalType: 'event', config: { eventName: 'a', eventPropertyKey: 'k' } },
      'config.eventPropertyValue',
      'give both or neither',
    ],
    [
      { name: 'g', goalType: 'event', config: { eventName: 'a', eventPropertyValue: 1 } },
      'config.eventPropertyKey',
      'give both or neither',
    ],
    [
      {
        name: 'g',
        goalType: 'event',
        config: { eventName: 'a', eventPropertyKey: 'k', eventPropertyValue: true },
      },
      'config.eventPropertyValue',
      'a string or a finite number',
    ],
    [
      {
        name: 'g',
        goalType: 'event',
        config: { eventName: 'a', eventPropertyKey: 'k', eventPropertyValue: 'v'.repeat(257) },
      },
      'config.eventPropertyValue',
      'at most 256',
    ],
  ])('rejects %j: %s', (body, field, text) => {
    const { status, error, details } = rejection(() => parseGoalInput(body))
    expect(status).toBe(400)
    expect(error).toContain(`Invalid goal: ${field}: `)
    expect(error).toContain(text)
    expect((details as { fieldErrors: Record<string, string[]> }).fieldErrors[field]?.join(' ')).toContain(
      text,
    )
  })

  it('refuses unknown top-level fields and bodies that are not objects', () => {
    expect(
      rejection(() => parseGoalInput({ name: 'g', goalType: 'path', config: { pathPattern: '/' }, x: 1 }))
        .error,
    ).toBe('Invalid goal: unknown fields: x')
    expect(rejection(() => parseGoalInput('goal')).error).toBe('Invalid goal: the body must be a JSON object')
    expect(rejection(() => parseGoalInput(undefined)).error).toContain('name is required')
  })
})

describe('parseGoalUpdate', () => {
  const current: GoalInput = { name: 'Pricing', goalType: 'path', config: { pathPattern: '/pricing' } }

  it('keeps what the body leaves out and replaces config as a whole', () => {
    expect(applyUpdate(current, { name: 'Pricing page' })).toEqual({ ...current, name: 'Pricing page' })
    expect(applyUpdate(current, {})).toEqual(current)
    expect(applyUpdate(current, { config: { pathPattern: '/plans/*' } })).toEqual({
      ...current,
      config: { pathPattern: '/plans/*' },
    })
    expect(applyUpdate(current, { goalType: 'event', config: { eventName: 'signup' } })).toEqual({
      name: 'Pricing',
      goalType: 'event',
      config: { eventName: 'signup' },
    })
    const event: GoalInput = {
      name: 'Pro',
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
    }
    // A new config drops the property match unless it is sent again.
    expect(applyUpdate(event, { config: { eventName: 'signup' } }).config).toEqual({
      eventName: 'signup',
    })
  })

  it('validates the merged goal', () => {
    expect(rejection(() => applyUpdate(current, { goalType: 'event' })).error).toBe(
      "Invalid goal: config: an event goal's config takes only eventName, eventPropertyKey and eventPropertyValue: pathPattern (send a config of the new goalType with it)",
    )
    expect(rejection(() => applyUpdate(current, { name: '' })).error).toBe(
      'Invalid goal: name: name is required',
    )
    expect(rejection(() => applyUpdate(current, { pathPattern: '/x' })).error).toBe(
      'Invalid goal: unknown fields: pathPattern',
    )
  })
})
