import { describe, expect, it } from 'vitest'
import { AppError } from '../shared/errors.js'
import { parseQueryParams } from './params.js'

const NOW = Date.parse('2026-03-29T23:30:00.000Z')

/** The 400 a query gives, as {error, fieldErrors}. */
function rejection(query: Record<string, unknown>) {
  try {
    parseQueryParams(query, NOW)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    const details = error.details as { fieldErrors: Record<string, string[]> }
    return { status: error.status, error: error.message, fieldErrors: details.fieldErrors }
  }
  throw new Error(`accepted ${JSON.stringify(query)}`)
}

describe('parseQueryParams', () => {
  it('defaults to the last 30 days ending today in UTC, page 1, 50 rows, no filters', () => {
    expect(parseQueryParams({}, NOW)).toEqual({
      startDate: '2026-02-28',
      endDate: '2026-03-29',
      timeZone: 'UTC',
      from: Date.parse('2026-02-28T00:00:00.000Z'),
      to: Date.parse('2026-03-30T00:00:00.000Z'),
      filters: [],
      page: 1,
      limit: 50,
    })
  })

  it('takes "today" in the time zone, and the range as its calendar days', () => {
    const params = parseQueryParams({ time_zone: 'europe/berlin' }, NOW)
    expect(params).toMatchObject({
      startDate: '2026-03-01',
      endDate: '2026-03-30',
      timeZone: 'Europe/Berlin',
    })
    expect(new Date(params.from).toISOString()).toBe('2026-02-28T23:00:00.000Z')
    expect(new Date(params.to).toISOString()).toBe('2026-03-30T22:00:00.000Z')
  })

  it('reads every parameter', () => {
    const filters = [{ parameter: 'country', type: 'equals', value: ['US', 'GB'] }]
    expect(
      parseQueryParams(
        {
          start_date: '2026-03-08',
          end_date: '2026-03-08',
          time_zone: 'America/New_York',
          filters: JSON.stringify(filters),
          page: '3',
          limit: '1000',
          unknown_parameter: 'ignored',
        },
        NOW,
      ),
    ).toEqual({
      startDate: '2026-03-08',
      endDate: '2026-03-08',
      timeZone: 'America/New_York',
      from: Date.parse('2026-03-08T05:00:00.000Z'),
      to: Date.parse('2026-03-09T04:00:00.000Z'),
      filters,
      page: 3,
      limit: 1000,
    })
    expect(parseQueryParams({ start_date: '2026-03-01' }, NOW)).toMatchObject({ endDate: '2026-03-29' })
    expect(parseQueryParams({ end_date: '2026-01-30' }, NOW)).toMatchObject({ startDate: '2026-01-01' })
    expect(parseQueryParams({ filters: '' }, NOW).filters).toEqual([])
  })

  it.each([
    [{ start_date: '2026-3-1' }, 'start_date', 'calendar date'],
    [{ start_date: '2026-02-30' }, 'start_date', 'calendar date'],
    [{ start_date: '2026-13-01' }, 'start_date', 'calendar date'],
    [{ start_date: '2026-00-10' }, 'start_date', 'calendar date'],
    [{ end_date: '2026-01-00' }, 'end_date', 'calendar date'],
    [{ end_date: '2026-01-32' }, 'end_date', 'calendar date'],
    [{ end_date: 'yesterday' }, 'end_date', 'calendar date'],
    [{ end_date: '1969-12-31' }, 'end_date', 'between 1970 and 2100'],
    [{ start_date: ['2026-03-01', '2026-03-02'] }, 'start_date', 'given once'],
    [{ start_date: '2026-03-10', end_date: '2026-03-09' }, 'end_date', 'not be before start_date'],
    [{ start_date: '2000-01-01', end_date: '2026-01-01' }, 'end_date', 'at most 3660 days'],
    [{ time_zone: 'Mars/Olympus_Mons' }, 'time_zone', 'IANA time zone'],
    [{ time_zone: '' }, 'time_zone', 'IANA time zone'],
    [{ page: '0' }, 'page', 'from 1 to 100000'],
    [{ page: '1.5' }, 'page', 'integer'],
    [{ limit: '1001' }, 'limit', 'from 1 to 1000'],
    [{ limit: '-1' }, 'limit', 'integer'],
    [{ limit: 'ten' }, 'limit', 'integer'],
    [{ filters: 'country=US' }, 'filters', 'must be JSON'],
    [{ filters: '{"parameter":"country"}' }, 'filters', 'JSON array'],
    [
      { filters: '[{"parameter":"ip_address","type":"equals","value":["1.2.3.4"]}]' },
      'filters',
      'unknown parameter "ip_address"',
    ],
    [{ filters: '[{"parameter":"country","type":"like","value":["US"]}]' }, 'filters', 'unknown type "like"'],
    [{ filters: '[{"parameter":"country","type":"equals","value":[]}]' }, 'filters', 'at least one value'],
    [{ filters: '[{"parameter":"country","type":"equals","value":"US"}]' }, 'filters', 'array of strings'],
    [
      { filters: '[{"parameter":"country","type":"equals","value":[1]}]' },
      'filters',
      'values must be strings',
    ],
    [{ filters: '[{"parameter":"country","type":"equals"}]' }, 'filters', 'array of strings'],
    [
      { filters: '[{"parameter":"country","type":"equals","value":["US"],"column":"x"}]' },
      'filters',
      'filter 0',
    ],
    [{ filters: '["country"]' }, 'filters', 'must be an object'],
    [
      { filters: `[{"parameter":"pathname","type":"regex","value":["${'a'.repeat(257)}"]}]` },
      'filters',
      'at most 256 characters',
    ],
    [
      { filters: '[{"parameter":"pathname","type":"regex","value":["(unclosed"]}]' },
      'filters',
      'invalid regex',
    ],
    [{ filters: '[{"parameter":"pathname","type":"regex","value":["a(?=b)"]}]' }, 'filters', 'lookahead'],
    [
      { filters: '[{"parameter":"pathname","type":"regex","value":["(a)\\\\1"]}]' },
      'filters',
      'backreferences',
    ],
    [
      {
        filters: JSON.stringify(
          Array.from({ length: 21 }, () => ({ parameter: 'country', type: 'equals', value: ['US'] })),
        ),
      },
      'filters',
      'at most 20 filters',
    ],
  ])('rejects %j naming %s', (query, name, text) => {
    const { status, error, fieldErrors } = rejection(query)
    expect(status).toBe(400)
    expect(error).toContain(name)
    expect(Object.keys(fieldErrors)).toEqual([name])
    expect(fieldErrors[name]?.join(' ')).toContain(text)
  })

  it('names every invalid parameter at once', () => {
    const { error, fieldErrors } = rejection({ start_date: 'x', limit: '0', time_zone: 'Nowhere/Land' })
    expect(error).toBe('Invalid query parameters: start_date, limit')
    expect(Object.keys(fieldErrors).sort()).toEqual(['limit', 'start_date'])
    // The zone is checked once the basic formats pass.
    expect(rejection({ time_zone: 'Nowhere/Land', filters: '[' }).error).toBe(
      'Invalid query parameters: time_zone, filters',
    )
  })

  it('accepts RE2 syntax that JavaScript lacks', () => {
    for (const pattern of ['(?i)^/docs', 'a(?i:b)c', '(?P<year>\\d{4})', '[[:alpha:]]+']) {
      const filters = JSON.stringify([{ parameter: 'pathname', type: 'regex', value: [pattern] }])
      expect(parseQueryParams({ filters }, NOW).filters[0]?.value).toEqual([pattern])
    }
  })
})
