import { describe, expect, it } from 'vitest'
import type { GoalDefinition } from './goal.js'
import { matchesGoal } from './match-goal.js'

const pageview = (pathname: string) => ({
  type: 'pageview' as const,
  pathname,
  event_name: '',
  properties: '',
})
const custom = (event_name: string, properties = '') => ({
  type: 'custom_event' as const,
  pathname: '/',
  event_name,
  properties,
})

describe('matchesGoal', () => {
  const exact: GoalDefinition = { goalType: 'path', config: { pathPattern: '/pricing' } }
  const prefix: GoalDefinition = { goalType: 'path', config: { pathPattern: '/blog/*' } }
  it('path goals: exact or trailing-* prefix, pageviews only', () => {
    expect(matchesGoal(exact, pageview('/pricing'))).toBe(true)
    expect(matchesGoal(exact, pageview('/pricing/'))).toBe(false)
    expect(matchesGoal(prefix, pageview('/blog/a/b'))).toBe(true)
    expect(matchesGoal(prefix, pageview('/blog'))).toBe(false)
    expect(matchesGoal(exact, { ...custom('x'), pathname: '/pricing' })).toBe(false)
  })

  it('scroll-depth goals: an engagement event of a matching path at or past the depth', () => {
    const engagement = (pathname: string, scroll_depth: number) => ({
      type: 'engagement' as const,
      pathname,
      event_name: '',
      properties: JSON.stringify({ scroll_depth, engagement_time: 1000 }),
    })
    const read: GoalDefinition = { goalType: 'path', config: { pathPattern: '/pricing', scrollDepth: 75 } }
    const all: GoalDefinition = { goalType: 'path', config: { pathPattern: '/blog/*', scrollDepth: 100 } }
    expect(matchesGoal(read, engagement('/pricing', 74))).toBe(false)
    expect(matchesGoal(read, engagement('/pricing', 75))).toBe(true)
    expect(matchesGoal(read, engagement('/pricing', 100))).toBe(true)
    expect(matchesGoal(read, engagement('/pricing/', 100))).toBe(false)
    expect(matchesGoal(read, pageview('/pricing'))).toBe(false)
    expect(matchesGoal(all, engagement('/blog/a', 99))).toBe(false)
    expect(matchesGoal(all, engagement('/blog/a', 100))).toBe(true)
    expect(matchesGoal(read, { ...engagement('/pricing', 0), properties: 'not json' })).toBe(false)
    // A pageview goal of the same path is not met by the engagement event.
    expect(matchesGoal(exact, engagement('/pricing', 100))).toBe(false)
  })

  it('event goals: name, and a property compared by its JSON type', () => {
    const seats: GoalDefinition = {
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'seats', eventPropertyValue: 3 },
    }
    expect(matchesGoal({ goalType: 'event', config: { eventName: 'signup' } }, custom('signup'))).toBe(true)
    expect(matchesGoal(seats, custom('signup', '{"seats":3}'))).toBe(true)
    expect(matchesGoal(seats, custom('signup', '{"seats":3.0}'))).toBe(true)
    expect(matchesGoal(seats, custom('signup', '{"seats":"3"}'))).toBe(true)
    expect(matchesGoal(seats, custom('signup', '{"seats":4}'))).toBe(false)
    expect(matchesGoal(seats, custom('signup', '{"seats":[3]}'))).toBe(false)
    expect(matchesGoal(seats, custom('signup', 'not json'))).toBe(false)
    expect(matchesGoal(seats, custom('login', '{"seats":3}'))).toBe(false)
    const pro: GoalDefinition = {
      goalType: 'event',
      config: { eventName: 'signup', eventPropertyKey: 'trial', eventPropertyValue: 'true' },
    }
    expect(matchesGoal(pro, custom('signup', '{"trial":true}'))).toBe(true)
  })
})
