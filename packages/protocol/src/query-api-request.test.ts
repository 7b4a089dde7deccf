/**
 * The Query API body as the protocol parses it: filters into trees (nesting, modifiers, segments), the
 * defaults, and the refusals, each naming its field path.
 */
import { describe, expect, it } from 'vitest'
import { queryApiBody } from './query-api-request.js'

const parse = (body: Record<string, unknown>) =>
  queryApiBody.safeParse({ site_id: 1, metrics: ['visitors'], date_range: '7d', ...body })

const problem = (body: Record<string, unknown>) => {
  const result = parse(body)
  if (result.success) throw new Error('expected a refusal')
  const [issue] = result.error.issues
  return `${issue?.path.join('.')}: ${issue?.message}`
}

describe('queryApiBody', () => {
  it('parses nested filters into a tree, with modifiers and segments', () => {
    const result = parse({
      filters: [
        [
          'or',
          [
            ['is', 'visit:country', ['DE']],
            ['not', ['contains', 'event:page', ['/Blog'], { case_sensitive: false }]],
          ],
        ],
        ['is', 'segment', [4]],
      ],
    })
    expect(result.success && result.data.filters).toEqual([
      {
        kind: 'or',
        filters: [
          {
            kind: 'condition',
            operator: 'is',
            dimension: 'visit:country',
            values: ['DE'],
            caseSensitive: true,
          },
          {
            kind: 'not',
            filter: {
              kind: 'condition',
              operator: 'contains',
              dimension: 'event:page',
              values: ['/Blog'],
              caseSensitive: false,
            },
          },
        ],
      },
      { kind: 'segment', segmentId: 4 },
    ])
    expect(result.success && result.data.pagination).toEqual({ limit: 10_000, offset: 0 })
    expect(result.success && result.data.dimensions).toEqual([])
  })

  it('refuses, naming the field', () => {
    expect(problem({ filters: [['or', [['is', 'visit:nope', ['x']]]]] })).toBe(
      'filters.0.1.0.1: invalid filter dimension "visit:nope"',
    )
    expect(problem({ filters: [['is', 'event:page', ['/'], { case: true }]] })).toBe(
      'filters.0.3.case: unknown modifier case',
    )
    expect(problem({ filters: [['is_not', 'segment', [1]]] })).toBe(
      'filters.0.0: a segment is filtered with is only',
    )
    expect(problem({ filters: [['is', 'time:day', ['2026-01-01']]] })).toMatch(
      /^filters\.0\.1: invalid filter dimension/,
    )
    expect(problem({ dimensions: ['time:day', 'time:month'] })).toBe('dimensions: at most one time dimension')
    expect(problem({ metrics: ['visitors', 'visitors'] })).toBe('metrics: metric visitors is named twice')
    expect(problem({ metrics: ['group_conversion_rate'] })).toBe(
      'metrics: metric group_conversion_rate needs a dimension',
    )
    expect(problem({ metrics: ['visit_duration'], dimensions: ['event:props:plan'] })).toBe(
      'metrics: session metric visit_duration cannot be queried with event dimension event:props:plan',
    )
    expect(problem({ unknown: 1 })).toMatch(/^: Unrecognized key/)
    expect(problem({ pagination: { limit: 10_001 } })).toMatch(/^pagination\.limit/)
    expect(problem({ date_range: ['2026-01-01', '2026-01-02T00:00:00Z'] })).toBe(
      'date_range: both dates, or both date-times',
    )
  })

  it('takes bounce rate and visit duration by event:page (the entry page) and revenue per currency', () => {
    expect(parse({ metrics: ['bounce_rate', 'visit_duration'], dimensions: ['event:page'] }).success).toBe(
      true,
    )
    expect(parse({ metrics: ['revenue:EUR', 'lcp_p75', 'errors'] }).success).toBe(true)
    expect(parse({ metrics: ['revenue:eur'] }).success).toBe(false)
  })
})
