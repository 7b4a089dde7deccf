/**
 * The parsed query of a read that names a segment: the contract's query split around `segment`, and
 * the segment's filters after the request's own parsed `filters` (a value the filters' check refuses
 * is left for its 400).
 */
import { analyticsQuery, statsQuery } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Filter } from '../query/filters.js'
import { segmentedQuery, segmentQuerySchemas, withSegmentFilters } from './segment-query.js'

const docs: Filter = { parameter: 'pathname', type: 'starts_with', value: ['/docs'] }
const german: Filter = { parameter: 'language', type: 'equals', value: ['de-DE'] }

describe('withSegmentFilters', () => {
  it("appends the segment's filters to the request's", () => {
    expect(withSegmentFilters({ json: [german] }, [docs])).toEqual({ json: [german, docs] })
  })

  it("is the segment's filters alone without filters", () => {
    expect(withSegmentFilters(undefined, [docs])).toEqual({ json: [docs] })
  })

  it('leaves a value the filters refuse as it is', () => {
    expect(withSegmentFilters({ notJson: true }, [docs])).toEqual({ notJson: true })
    expect(withSegmentFilters({ json: { parameter: 'pathname' } }, [docs])).toEqual({
      json: { parameter: 'pathname' },
    })
  })
})

describe('segmentQuerySchemas', () => {
  it('splits a query that takes segment, and leaves others alone', () => {
    const schemas = segmentQuerySchemas(statsQuery)
    expect(Object.keys(schemas?.segment.shape ?? {})).toEqual(['segment'])
    expect(Object.keys(schemas?.others.shape ?? {}).sort()).toEqual(
      Object.keys(statsQuery.shape)
        .filter((key) => key !== 'segment')
        .sort(),
    )
    expect(segmentQuerySchemas(z.object({ token: z.string() }))).toBeUndefined()
    expect(segmentQuerySchemas(undefined)).toBeUndefined()
    expect(() => segmentQuerySchemas(analyticsQuery.omit({ filters: true }))).toThrow(/must take filters/)
  })

  it('parses the other parameters as the whole query would, the segment after the filters', () => {
    const schemas = segmentQuerySchemas(statsQuery)
    if (!schemas) throw new Error('statsQuery takes segment')
    const raw = { start_date: '2026-03-01', bucket: 'day', filters: JSON.stringify([german]), segment: '7' }
    const { filters: _, ...whole } = statsQuery.parse(raw)
    expect(segmentedQuery(schemas, raw, { segment: 7, filters: [docs] })).toEqual({
      ...whole,
      filters: { json: [german, docs] },
    })
  })
})
