/**
 * A batch part's parameters derived from its report's GET query: as values (a number a number, a
 * list an array), checked with the GET parser's bounds and messages, and the common parameters it
 * takes from the batch's query string; the `filters` text parsed into its JSON value.
 */
import { describe, expect, it } from 'vitest'
import { analyticsQuery, integerParam } from './analytics-query.js'
import { jsonCheckOf, jsonValueOf } from './openapi-registry.js'
import { partCommonKeys, partQueryChecks } from './report-batch.js'

describe('partQueryChecks', () => {
  it("parses a part's own parameters as the values its GET route parses from text", () => {
    expect(partQueryChecks('breakdown').parse({ metrics: ['pageviews'], page: 2, limit: 1 })).toEqual({
      metrics: ['pageviews'],
      page: 2,
      limit: 1,
    })
    expect(partQueryChecks('events').parse({ type: ['pageview', 'custom_event'], limit: 2 })).toEqual({
      type: ['pageview', 'custom_event'],
      limit: 2,
    })
    expect(partQueryChecks('sessions').parse({ has_replay: false })).toEqual({ has_replay: false })
  })

  it("takes only the part's own parameters, in its GET query's order", () => {
    expect(Object.keys(partQueryChecks('breakdown').shape)).toEqual(['page', 'limit', 'metrics'])
    expect(Object.keys(partQueryChecks('events').shape)).toEqual(['limit', 'type', 'event_name', 'cursor'])
    expect(Object.keys(partQueryChecks('stats').shape)).toEqual(['bucket'])
  })

  it("refuses with the GET route's messages, the bounds the document leaves out included", () => {
    const refused = partQueryChecks('breakdown').safeParse({ limit: 5000, page: 100_001 })
    expect(refused.success).toBe(false)
    expect(refused.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['page'], 'page must be an integer from 1 to 100000'],
      [['limit'], 'limit must be an integer from 1 to 1000'],
    ])
  })
})

describe('jsonCheckOf', () => {
  it("is an integer's value with both bounds, where the documented value has the lower one", () => {
    const limit = integerParam('limit', 1, 1000)
    expect(jsonValueOf(limit).safeParse(5000).success).toBe(true)
    expect(jsonCheckOf(limit).safeParse(5000).success).toBe(false)
    expect(jsonCheckOf(limit.optional()).safeParse(1000).success).toBe(true)
  })
})

describe('partCommonKeys', () => {
  it('is every common parameter its GET query takes', () => {
    expect(partCommonKeys('stats')).toEqual(Object.keys(analyticsQuery.shape))
    expect(partCommonKeys('events')).toEqual(
      Object.keys(analyticsQuery.shape).filter((key) => key !== 'page'),
    )
  })
})

describe('analyticsQuery filters', () => {
  it('parses the text into its JSON value, text that is not JSON into notJson, an empty text into none', () => {
    const filters = [{ parameter: 'country', type: 'equals', value: ['US'] }]
    expect(analyticsQuery.parse({ filters: JSON.stringify(filters) }).filters).toEqual({ json: filters })
    expect(analyticsQuery.parse({ filters: '[' }).filters).toEqual({ notJson: true })
    expect(analyticsQuery.parse({ filters: '' }).filters).toBeUndefined()
    expect(analyticsQuery.safeParse({ filters: ['[]', '[]'] }).error?.issues[0]?.message).toBe(
      'filters must be given once',
    )
  })
})
