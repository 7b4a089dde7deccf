import { describe, expect, it } from 'vitest'
import { goalOf } from '../components/reports/goal-form'
import { describeGoal } from './goal-text'

describe('goals in words and from the form', () => {
  it('describes both kinds', () => {
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
  })

  it('sends a property condition only with a key', () => {
    const draft = {
      name: 'Signup',
      goalType: 'event' as const,
      pathPattern: '/ignored',
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
