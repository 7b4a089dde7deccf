import { describe, expect, it } from 'vitest'
import { checkFilters, checkFiltersParam, compileFilters, type Filter, regexProblem } from './filters.js'
import { EVENT_ORDER_KEY } from './metrics.js'

describe('compileFilters', () => {
  it('compiles each type to a condition whose values are all bound', () => {
    const filters: Filter[] = [
      { parameter: 'country', type: 'equals', value: ['US', 'GB'] },
      { parameter: 'browser', type: 'not_equals', value: ['Safari'] },
      { parameter: 'pathname', type: 'contains', value: ['blog', "'; DROP TABLE events; --"] },
      { parameter: 'referrer', type: 'not_contains', value: ['spam'] },
      { parameter: 'utm_campaign', type: 'starts_with', value: ['spring', 'summer'] },
      { parameter: 'hostname', type: 'regex', value: ['^www\\.'] },
      { parameter: 'event_name', type: 'regex', value: ['^sign', '(?i)up$'] },
      { parameter: 'entry_page', type: 'equals', value: ['/'] },
      { parameter: 'exit_page', type: 'starts_with', value: ['/docs'] },
    ]
    expect(compileFilters(filters)).toEqual({
      event: [
        'country IN {f0:Array(String)}',
        'browser NOT IN {f1:Array(String)}',
        'multiSearchAnyCaseInsensitiveUTF8(pathname, {f2:Array(String)})',
        'NOT multiSearchAnyCaseInsensitiveUTF8(referrer_domain, {f3:Array(String)})',
        '(startsWith(utm_campaign, {f4_0:String}) OR startsWith(utm_campaign, {f4_1:String}))',
        'match(hostname, {f5:String})',
        'match(event_name, {f6:String})',
      ].join(' AND '),
      session: [
        `argMinIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview') IN {f7:Array(String)}`,
        `startsWith(argMaxIf(pathname, ${EVENT_ORDER_KEY}, type = 'pageview'), {f8_0:String})`,
      ].join(' AND '),
      params: {
        f0: ['US', 'GB'],
        f1: ['Safari'],
        f2: ['blog', "'; DROP TABLE events; --"],
        f3: ['spam'],
        f4_0: 'spring',
        f4_1: 'summer',
        f5: '^www\\.',
        f6: '(?:^sign)|(?:(?i)up$)',
        f7: ['/'],
        f8_0: '/docs',
      },
    })
    expect(compileFilters([])).toEqual({ event: null, session: null, params: {} })
  })
})

describe('property filters', () => {
  it('bind the key and the values: no input reaches the SQL text', () => {
    const key = "x') OR 1=1 --"
    const filters: Filter[] = [
      { parameter: `properties.${key}`, type: 'equals', value: ['3', "'; DROP TABLE events; --"] },
      { parameter: 'properties.plan', type: 'is_set', value: [] },
      { parameter: 'properties.plan', type: 'contains', value: ['pro'] },
    ]
    const compiled = compileFilters(filters)
    expect(compiled.event).not.toContain('DROP')
    expect(compiled.event).not.toContain('1=1')
    expect(compiled.params).toMatchObject({ f0_key: key, f0_numbers: ['3'], f1_key: 'plan', f2: ['pro'] })
    expect(compiled.event).toContain('mapContains(property_map, {f1_key:String})')
  })

  it('parse with [] for is_set and refuse bad keys, naming the filter', () => {
    const parse = (filters: unknown[]) => checkFilters(filters)
    expect(parse([{ parameter: 'properties.plan', type: 'is_not_set', value: [] }])).toEqual({
      ok: true,
      filters: [{ parameter: 'properties.plan', type: 'is_not_set', value: [] }],
    })
    expect(parse([{ parameter: 'properties.', type: 'equals', value: ['x'] }])).toEqual({
      ok: false,
      problems: ['filter 0 (parameter): property key must not be empty'],
    })
    expect(parse([{ parameter: 'pathname', type: 'is_set', value: [] }])).toEqual({
      ok: false,
      problems: ['filter 0 (type): type is_set applies to properties.<key> only'],
    })
  })
})

describe('checkFilters', () => {
  it('accepts every parameter and type', () => {
    const parameters = [
      'pathname',
      'hostname',
      'referrer',
      'channel',
      'country',
      'region',
      'city',
      'browser',
      'operating_system',
      'device_type',
      'language',
      'event_name',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
      'entry_page',
      'exit_page',
    ]
    const types = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'regex']
    const all = parameters.flatMap((parameter) => types.map((type) => ({ parameter, type, value: ['x'] })))
    for (let i = 0; i < all.length; i += 20) {
      const chunk = all.slice(i, i + 20)
      expect(checkFilters(chunk)).toEqual({ ok: true, filters: chunk })
    }
  })

  it('names the filter and field of each problem', () => {
    expect(
      checkFilters([
        { parameter: 'country', type: 'equals', value: ['US'] },
        { parameter: 'x', type: 'equals', value: ['1'] },
      ]),
    ).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^filter 1 \(parameter\): unknown parameter "x"; one of pathname, hostname/),
      ],
    })
  })

  it('refuses a list nested too deeply, and a value that is not a list', () => {
    let deep: unknown = []
    for (let i = 0; i < 600; i++) deep = [deep]
    expect(checkFilters(deep)).toEqual({ ok: false, problems: [expect.stringMatching(/^filters: /)] })
    expect(checkFilters({ parameter: 'pathname' })).toEqual({
      ok: false,
      problems: ['filters must be a JSON array'],
    })
  })
})

describe('checkFiltersParam', () => {
  it('checks the JSON value of the parameter, and names text that is not JSON', () => {
    const filters = [{ parameter: 'country', type: 'equals', value: ['US'] }]
    expect(checkFiltersParam({ json: filters })).toEqual({ ok: true, filters })
    expect(checkFiltersParam({ notJson: true })).toEqual({
      ok: false,
      problems: ['filters must be JSON: an array of {parameter, type, value}'],
    })
  })
})

describe('regex filters', () => {
  it('refuses values that compile alone but not together, naming the filter', () => {
    const values = Array.from({ length: 2 }, (_, i) => `${i}\\pL{300}`)
    expect(values.map((value) => regexProblem(value))).toEqual([null, null])
    const parsed = checkFilters([{ parameter: 'pathname', type: 'regex', value: values }])
    expect(parsed).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^filter 0 \(value\): the values together: invalid regex: pattern too large/),
      ],
    })
  })
})

describe('regexProblem', () => {
  it.each([
    ['^/blog/[0-9]+$', null],
    ['(?i)^/docs', null],
    ['[[:digit:]]', null],
    ['a{2,', null], // a literal in both dialects
    ['(', 'invalid regex'],
    ['[a-', 'invalid regex'],
    ['*a', 'invalid regex'],
    ['(?<=a)b', 'lookbehind'],
    ['(?!a)', 'lookahead'],
    ['(a)\\1', 'backreferences'],
    // Refused by ClickHouse's RE2, once accepted here.
    ['[[:foo:]]', 'invalid character class range'],
    ['\\pL{1000}', 'pattern too large'],
    ['(a{100}){100}', 'invalid repetition size'],
    ['a{1001}', 'invalid repetition size'],
    ['[a-\\d]', 'invalid'],
    ['\\p{Foo}', 'invalid character class'],
    // JavaScript escapes the re2 package would rewrite, and ClickHouse would not.
    ['\\u0041', '\\u0 is JavaScript syntax'],
    ['\\p{Letter}', '\\p{Letter} is JavaScript syntax'],
    ['\\p{Script=Greek}', 'JavaScript syntax'],
    ['\\cA', 'JavaScript syntax'],
    ['\\\\u0041', null], // an escaped backslash, then "u0041"
    ['\\p{Greek}', null],
    ['\\p{Old_Italic}', null],
    ['\\x{41}', null],
    ['(?P<year>\\d{4})', null],
  ])('%s', (pattern, problem) => {
    const found = regexProblem(pattern)
    if (problem === null) expect(found).toBeNull()
    else expect(found).toContain(problem)
  })
})
