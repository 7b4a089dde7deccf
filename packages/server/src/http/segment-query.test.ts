/**
 * `withSegmentFilters`: a segment's filters after the request's own `filters` text; text the route
 * refuses anyway is left for its 400.
 */
import { describe, expect, it } from 'vitest'
import type { Filter } from '../query/filters.js'
import { withSegmentFilters } from './segment-query.js'

const docs: Filter = { parameter: 'pathname', type: 'starts_with', value: ['/docs'] }
const german: Filter = { parameter: 'language', type: 'equals', value: ['de-DE'] }

describe('withSegmentFilters', () => {
  it("appends the segment's filters to the request's", () => {
    expect(JSON.parse(withSegmentFilters(JSON.stringify([german]), [docs]) as string)).toEqual([german, docs])
  })

  it("is the segment's filters alone without filters, or with an empty parameter", () => {
    expect(JSON.parse(withSegmentFilters(undefined, [docs]) as string)).toEqual([docs])
    expect(JSON.parse(withSegmentFilters('', [docs]) as string)).toEqual([docs])
  })

  it('leaves text the route refuses as it is', () => {
    expect(withSegmentFilters('not json', [docs])).toBe('not json')
    expect(withSegmentFilters('{"parameter":"pathname"}', [docs])).toBe('{"parameter":"pathname"}')
    expect(withSegmentFilters(['[]', '[]'], [docs])).toEqual(['[]', '[]'])
  })
})
