/**
 * Test support: fast-check arbitraries of hostile input for the fuzzed-surface suite. Each one draws
 * mostly from hand-picked values that have broken servers before (SQL and ClickHouse fragments,
 * backtracking regexes, numbers at the edges of int32/int53/float64, unicode that is not what it seems,
 * huge and deeply nested values), mixed with random ones so that runs with another seed find more.
 *
 * Values are of three wire forms:
 * - `hostileText`: strings, for query parameters and JSON string fields;
 * - `hostilePathSegment`: already percent-encoded URL path segments (some deliberately malformed);
 * - `hostileJson`: JSON values, including tokens `JSON.stringify` cannot write (`-0`, `1e999`, nesting
 *   100,000 deep), carried as `RawJson` and written verbatim by `toJsonText`.
 */
import fc from 'fast-check'

/** A JSON fragment written verbatim into a body by `toJsonText` (it may not be valid JSON at all). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON value as the fuzzer builds it: plain JSON, with `RawJson` fragments anywhere. */
export type HostileJson =
  | null
  | boolean
  | number
  | string
  | RawJson
  | HostileJson[]
  | { [key: string]: HostileJson }

/** Characters in a huge string: 100 KB, about ten times what most fields accept. */
export const HUGE = 100_000

/** Fragments aimed at SQL and ClickHouse query text, should a value ever be spliced into it. */
export const injections = [
  "' OR 1=1 --",
  "'); DROP TABLE site; --",
  '"; DROP TABLE events; --',
  "1' UNION SELECT name FROM system.tables --",
  '{site:UInt32}',
  '{siteId:String}',
  '{f0:Array(String)}',
  "\\'",
  '\\',
  "''",
  '`',
  "format('{}', 1)",
  'SLEEP(3)',
  'sleep(3)',
  "'||sleepEachRow(3)||'",
  "file('/etc/passwd')",
  "url('http://127.0.0.1:8123/?query=SELECT+1')",
  '1; SELECT 1',
  '$1',
  '?',
  ':siteId',
  '%s%s%s%n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, literally
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
] as const

/** Regexes meant to backtrack (JS) or to be refused by RE2, and patterns that are barely regexes. */
export const evilRegexes = [
  '(a+)+$',
  '(.*a){20}',
  '^(a|a)*$',
  '(x+x+)+y',
  '([a-zA-Z]+)*$',
  '(?i)(a+)+b',
  'a{1001}',
  'a{2,1}',
  '(?<=a)b',
  '(a)\\1',
  '(?P<n>a)',
  '[[:alpha:]]',
  '\\C',
  '\\Q.*\\E',
  '(',
  ')',
  '[',
  '*',
  '\\',
  '(?',
  '(?U)a+',
  '\\pN',
  '.{0,1000}{0,1000}',
  '',
  '\\p{Letter}',
  '\\pL{300}',
] as const

/**
 * Regexes the events store's RE2 refuses: on a chDB session, one that failed while reading rows left
 * its output to the session's next query, whoever sent it. Each is refused before any query runs now
 * (`\\u0041` is JavaScript syntax the re2 package would rewrite and ClickHouse would not).
 */
export const storeRefusedRegexes = [
  '[[:foo:]]',
  '\\pL{1000}',
  '(a{100}){100}',
  'a{1001}',
  '[a-\\d]',
  '\\p{Foo}',
  '\\u0041',
  '(',
] as const

/** Every hostile regex: those meant to backtrack or to be refused, and those the store refused. */
export const hostileRegexes = [...evilRegexes, ...storeRefusedRegexes]

/** Strings that read as numbers, or almost. */
export const numberTexts = [
  'NaN',
  '-0',
  '0',
  '-1',
  '1e308',
  '1e309',
  '-1e309',
  'Infinity',
  '9007199254740993',
  '2147483648',
  '4294967295',
  '4294967296',
  '99999999999999999999999999',
  '0x10',
  '1_000',
  ' 1',
  '1 ',
  '1.5',
  '01',
  '+1',
  '1e3',
  '',
] as const

/** Dates that are not `YYYY-MM-DD` calendar days between 1970 and 2100, and some that barely are. */
export const badDates = [
  '2024-02-30',
  '2023-02-29',
  '2024-13-01',
  '2024-00-10',
  '2024-1-1',
  '0000-01-01',
  '1969-12-31',
  '1970-01-01',
  '2100-12-31',
  '2101-01-01',
  '9999-12-31',
  '+002024-01-01',
  '2024-01-01T00:00:00Z',
  '20240101',
  '2024/01/01',
  '01-01-2024',
  'today',
  '2024-01-01\u0000',
] as const

/** Time zones that are malformed, unknown, aliases, or new enough that a store may lack them. */
export const badTimeZones = [
  'Mars/Olympus_Mons',
  'UTC+25',
  '+05:30',
  'Z',
  'utc',
  'Etc/GMT+14',
  'Etc/GMT-14',
  'Etc/GMT+13',
  'EST5EDT',
  'America/Ciudad_Juarez',
  'Europe/Kyiv',
  'Pacific/Kanton',
  'Asia/Calcutta',
  'US/Pacific-New',
  'Factory',
  'SystemV/AST4',
  'posix/Europe/Berlin',
  'right/UTC',
  'localtime',
  'posixrules',
  '../../../../etc/passwd',
  'Europe/Berlin\u0000',
  'a'.repeat(65),
] as const

/** Unicode that breaks naive code: NUL, lone surrogates, RTL override, BOM, emoji, combining marks. */
export const trickyUnicode = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDC00',
  'a\uDBFFb',
  '\u202Eexe.txt',
  '\uFEFF',
  '\u200B',
  '😀',
  '👩‍👩‍👧‍👦',
  'مرحبا بالعالم',
  'e\u0301\u0301\u0301\u0301',
  '\u2028\u2029',
  '\r\n\r\n',
  '\u001b[31m',
  'ﬀ',
  'İ',
] as const

/** Huge strings: ASCII, emoji (surrogate pairs), quotes, NULs, percent signs. */
export const hugeStrings = [
  'a'.repeat(HUGE),
  '😀'.repeat(HUGE / 2),
  "'".repeat(HUGE),
  '\u0000'.repeat(HUGE),
  '%'.repeat(HUGE),
  '(a+)+'.repeat(HUGE / 5),
] as const

/** JSON inside a string (as `properties` and `filters` hold it): deep, prototype keys, odd numbers. */
export const jsonTexts = [
  `{"a":${'['.repeat(1_000)}${']'.repeat(1_000)}}`,
  `{"message":"boom","a":${'['.repeat(2_000)}${']'.repeat(2_000)}}`,
  `{${'"a":{'.repeat(300)}${'}'.repeat(300)}}`,
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  '{"experiment":"fuzz","variant":"\u0000\ud800"}',
  '{"n":1e309,"m":-0,"big":123456789012345678901234567890}',
  '{"a":1,"a":2}',
  '[]',
  'null',
] as const

/** A string a field should refuse or treat as plain text. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...injections) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileRegexes) },
  { weight: 2, arbitrary: fc.constantFrom(...numberTexts) },
  { weight: 2, arbitrary: fc.constantFrom(...badDates) },
  { weight: 2, arbitrary: fc.constantFrom(...badTimeZones) },
  { weight: 3, arbitrary: fc.constantFrom(...trickyUnicode) },
  { weight: 1, arbitrary: fc.constantFrom(...hugeStrings) },
  { weight: 1, arbitrary: fc.constantFrom(...jsonTexts) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
)

/** Malformed or hostile `filters` query parameter texts (a JSON array of `{parameter, type, value}`). */
export const hostileFilters: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '[',
    '{}',
    '[{}]',
    '[null]',
    '"pathname"',
    '[[]]',
    '[{"parameter":"pathname","type":"equals","value":[]}]',
    '[{"parameter":"pathname","type":"equals","value":"x"}]',
    '[{"parameter":"pathname","type":"equals","value":[1]}]',
    '[{"parameter":"pathname","type":"equals","value":["x"],"extra":1}]',
    '[{"parameter":"__proto__","type":"equals","value":["x"]}]',
    '[{"__proto__":{"parameter":"pathname"},"type":"equals","value":["x"]}]',
    '[{"parameter":"site_id","type":"equals","value":["1"]}]',
    '[{"parameter":"pathname","type":"equals","value":["x"]},'.repeat(25),
    `[${'{"parameter":"pathname","type":"equals","value":["x"]},'.repeat(25)}{}]`,
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  ),
  // A well-formed regex filter of a hostile pattern, so that the pattern reaches the regex checks.
  fc
    .tuple(
      fc.constantFrom('pathname', 'entry_page', 'hostname', 'event_name'),
      fc.array(fc.constantFrom(...hostileRegexes), { minLength: 1, maxLength: 3 }),
    )
    .map(([parameter, value]) => JSON.stringify([{ parameter, type: 'regex', value }])),
  fc
    .array(
      fc.record({
        parameter: fc.oneof(
          fc.constantFrom('pathname', 'country', 'entry_page', 'exit_page', 'referrer', 'event_name'),
          hostileText,
        ),
        type: fc.oneof(
          fc.constantFrom('equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'regex'),
          hostileText,
        ),
        value: fc.oneof(
          fc.array(fc.oneof(hostileText, fc.constantFrom(...hostileRegexes)), { minLength: 1, maxLength: 4 }),
          fc.array(fc.constant('x'), { minLength: 101, maxLength: 101 }),
        ),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((filters) => JSON.stringify(filters)),
)

/**
 * Percent-encode a string as a browser would, except that a lone surrogate (which `encodeURIComponent`
 * refuses) becomes the bytes of its CESU-8 form, `%ED%A0%80` for U+D800: invalid UTF-8, as a hostile
 * client would send it.
 */
export function encodeHostile(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('')
    } else out += encodeURIComponent(char)
  }
  return out
}

/** Path segments written as they go on the wire: traversal, NUL, bad escapes, numbers that are not ids. */
export const rawPathSegments = [
  '..',
  '../..',
  '%2e%2e%2f%2e%2e',
  '%00',
  '1%00',
  '%',
  '%zz',
  '%ED%A0%80',
  '%C0%AF',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '0x1',
  '01',
  '+1',
  '%201',
  '4294967295',
  '4294967296',
  '9007199254740993',
  '99999999999999999999999999999',
  '9'.repeat(99),
  '9'.repeat(101),
  'NaN',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '%7Bsite%3AUInt32%7D',
] as const

/** A hostile path segment, percent-encoded where it is not meant to be raw. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...rawPathSegments) },
  { weight: 2, arbitrary: hostileText.filter((text) => text.length < 2_000).map(encodeHostile) },
)

/** Numbers at the edges, as raw JSON tokens where JSON.stringify would change them. */
export const edgeNumbers: fc.Arbitrary<HostileJson> = fc.oneof(
  fc.constantFrom<HostileJson>(
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 31 - 1,
    2 ** 32,
    Number.MAX_SAFE_INTEGER,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
  fc.constantFrom(
    new RawJson('-0'),
    new RawJson('9007199254740993'),
    new RawJson('1e309'),
    new RawJson('-1e309'),
    new RawJson('1e-400'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('0.1e1'),
  ),
  fc.double(),
  fc.integer(),
)

/** JSON nested `depth` arrays or objects deep, as raw text (no recursion to build or write it). */
export const deeplyNested = (depth: number, kind: 'array' | 'object'): RawJson =>
  new RawJson(
    kind === 'array'
      ? `${'['.repeat(depth)}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  )

/** A small random JSON value (plain JSON, at most 3 levels). */
const smallJson: fc.Arbitrary<HostileJson> = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<HostileJson>

/**
 * Any hostile JSON value: a wrong type for whatever field it lands in, a hostile string, an edge
 * number, a huge or deeply nested value, prototype keys, or a raw token that is not JSON at all.
 */
export const hostileJson: fc.Arbitrary<HostileJson> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<HostileJson>(null, true, false, {}, [], '', [null], { '': null }) },
  { weight: 4, arbitrary: hostileText },
  { weight: 3, arbitrary: edgeNumbers },
  {
    weight: 1,
    arbitrary: fc.constantFrom<HostileJson>(
      deeplyNested(100_000, 'array'),
      deeplyNested(10_000, 'object'),
      deeplyNested(2_000, 'array'),
      new RawJson(`[${'1,'.repeat(50_000)}1]`),
      new RawJson(`{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
      new RawJson('{"__proto__":{"isAdmin":true,"role":"owner"}}'),
      new RawJson('{"constructor":{"prototype":{"polluted":true}}}'),
      new RawJson('NaN'),
      new RawJson('undefined'),
      new RawJson('"\\ud800"'),
      new RawJson('"\\u0000"'),
    ),
  },
  { weight: 2, arbitrary: smallJson },
)

/**
 * Write a hostile value as JSON text: plain values as `JSON.stringify` would, `RawJson` verbatim.
 * @returns the text (not necessarily valid JSON when a `RawJson` fragment is not)
 */
export function toJsonText(value: HostileJson | undefined): string {
  if (value instanceof RawJson) return value.text
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item)).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
