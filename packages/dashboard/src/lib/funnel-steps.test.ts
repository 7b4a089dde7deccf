import { describe, expect, it } from 'vitest'
import {
  decodeSteps,
  draftOf,
  emptyStep,
  encodeSteps,
  parseShow,
  showOf,
  stepErrors,
  stepOf,
} from './funnel-steps'

describe('funnel steps', () => {
  it('turns drafts into steps, numbers as numbers', () => {
    expect(stepOf({ ...emptyStep('path'), target: ' /pricing* ' })).toEqual({
      type: 'path',
      pathPattern: '/pricing*',
    })
    expect(stepOf({ type: 'event', target: 'signup', propertyKey: 'seats', propertyValue: '3' })).toEqual({
      type: 'event',
      eventName: 'signup',
      eventPropertyKey: 'seats',
      eventPropertyValue: 3,
    })
    expect(
      stepOf({ type: 'event', target: 'signup', propertyKey: 'plan', propertyValue: 'pro' }),
    ).toMatchObject({
      eventPropertyValue: 'pro',
    })
    expect(stepOf({ ...emptyStep('scroll'), target: ' /pricing ', scrollDepth: '75' })).toEqual({
      type: 'path',
      pathPattern: '/pricing',
      scrollDepth: 75,
    })
    expect(draftOf({ type: 'path', pathPattern: '/a', scrollDepth: 50 })).toMatchObject({
      type: 'scroll',
      target: '/a',
      scrollDepth: '50',
    })
    expect(stepOf({ type: 'event', target: 'signup', propertyKey: '', propertyValue: 'x' })).toEqual({
      type: 'event',
      eventName: 'signup',
    })
  })

  it('round-trips drafts and the URL parameters, and ignores malformed ones', () => {
    const steps = [
      stepOf({ ...emptyStep(), target: '/' }),
      stepOf({ type: 'event', target: 'a', propertyKey: 'k', propertyValue: '2' }),
    ]
    expect(steps.map(draftOf).map(stepOf)).toEqual(steps)
    expect(decodeSteps(encodeSteps(steps))).toEqual(steps)
    expect(decodeSteps('[{"type":"goal"}]')).toBeUndefined()
    expect(decodeSteps('{')).toBeUndefined()
    expect(decodeSteps(undefined)).toBeUndefined()
    expect(parseShow(showOf(2, 'dropped'))).toEqual({ step: 2, outcome: 'dropped' })
    expect(parseShow('3')).toEqual({ step: 3, outcome: 'reached' })
    expect(parseShow('x')).toBeUndefined()
    expect(parseShow(showOf(2, 'dropped', '/a:b'))).toEqual({ step: 2, outcome: 'dropped', value: '/a:b' })
    expect(parseShow(showOf(1, 'reached', ''))).toEqual({ step: 1, outcome: 'reached', value: '' })
    expect(showOf(3, 'reached')).toBe('3')
  })

  it("picks one step's messages out of the server's field errors", () => {
    const errors = { 'steps.1.pathPattern': ['bad'], 'steps.10': ['x'], steps: ['too few'], 'steps.1': ['y'] }
    expect(stepErrors(errors, 1)).toEqual(['bad', 'y'])
    expect(stepErrors(errors, 0)).toEqual([])
    expect(stepErrors(undefined, 1)).toEqual([])
  })
})
