import { describe, expect, it } from 'vitest'
import { goalOf } from '../components/reports/goal-form'
import { describeGoal } from './goal-text'

describe('goals in words and from the form', () => {
  it('describes every kind', () => {
    expect(describeGoal({ name: 'x', goalType: 'path', config: { pathPattern: '/pricing' } })).toBe(
      'Visit /pricing',
    )
    expect(describeGoal({ name: 'x', goalType: 'path', config: { pathPattern: '/blog/*' } })).toBe(
      'Visit a page starting with /blog/',
    )
    expect(
      describeGoal({
        name: 'x',
        goalType: 'event',
        config: { eventName: 'signup', eventPropertyKey: 'plan', eventPropertyValue: 'pro' },
      }),
    ).toBe('Event signup with plan = pro')
    expect(
      describeGoal({ name: 'x', goalType: 'path', config: { pathPattern: '/pricing', scrollDepth: 75 } }),
    ).toBe('Scroll 75 % of /pricing')
    expect(
      describeGoal({ name: 'x', goalType: 'path', config: { pathPattern: '/blog/*', scrollDepth: 50 } }),
    ).toBe('Scroll 50 % of a page starting with /blog/')
  })

  it('sends a scrolling goal as a path goal with its depth, a depth not a number as typed', () => {
    const draft = {
      name: 'Read pricing',
      goalType: 'scroll' as const,
      pathPattern: ' /pricing ',
      scrollDepth: '75',
      eventName: '',
      propertyKey: '',
      propertyValue: '',
    }
    expect(goalOf(draft)).toEqual({
      name: 'Read pricing',
      goalType: 'path',
      config: { pathPattern: '/pricing', scrollDepth: 75 },
    })
    expect(goalOf({ ...draft, scrollDepth: 'lots' }).config).toEqual({
      pathPattern: '/pricing',
      scrollDepth: 'lots',
    })
  })

  it('sends a property condition only with a key', () => {
    const draft = {
      name: 'Signup',
      goalType: 'event' as const,
      pathPattern: '/ignored',
      scrollDepth: '75',
      eventName: ' signup ',
      propertyKey: '',
      propertyValue: 'pro',
    }
    expect(goalOf(draft)).toEqual({ name: 'Signup', goalType: 'event', config: { eventName: 'signup' } })
    expect(goalOf({ ...draft, propertyKey: 'plan' }).config).toEqual({
      eventName: 'signup',
      eventPropertyKey: 'plan',
      eventPropertyValue: 'pro',
    })
  })
})
