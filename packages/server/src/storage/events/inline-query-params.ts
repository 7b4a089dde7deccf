/**
 * Query parameters written into the SQL as typed literals, for chDB, and on a ClickHouse server for
 * parameters too big for a URL (`paramsForUrl` in `clickhouse-store.ts`): `{name:Type}` becomes
 * `CAST(<literal> AS Type)`, a constant of the same type that a bound parameter would be.
 *
 * Why: chdb-node runs every query that has bound parameters through one process-wide chain, one at a
 * time (libchdb's parameter state is not isolated per connection; see the comment above
 * `globalParamChain` in `chdb/index.js`), while queries without parameters run side by side on
 * separate connections: with bound parameters two queries at once on two sessions take as long as two
 * in a row, with literals less (`bench/query/parallel.ts`; bench/README.md "query: chDB parallelism"). A
 * ClickHouse server binds parameters per request and keeps them.
 *
 * Values are never spliced as text: strings are quoted with every backslash, quote and NUL escaped
 * (ClickHouse's string literal escapes), so no value can end its literal; numbers must be finite;
 * arrays are written element by element; anything else is refused.
 */

/** A value this module writes as a literal: what the query layer binds. */
export type QueryParamValue = string | number | boolean | null | readonly QueryParamValue[]

/** `{name:Type}`: a name of word characters, a type without braces (e.g. `DateTime64(3, 'UTC')`). */
const PLACEHOLDER = /\{(\w+):([^{}]+)\}/g

/**
 * @param sql a statement with `{name:Type}` placeholders, as `EventsStore.query` takes it
 * @param params a value for every placeholder's name (others are ignored)
 * @returns the statement with every placeholder replaced by `CAST(<literal> AS Type)`
 * @throws Error naming the parameter when a placeholder has no value, or a value is not a string,
 *   finite number, boolean, null or array of those
 */
export function inlineQueryParams(sql: string, params: Record<string, unknown>): string {
  return sql.replace(PLACEHOLDER, (_placeholder, name: string, type: string) => {
    if (!Object.hasOwn(params, name)) throw new Error(`Query parameter ${name} has no value`)
    return `CAST(${literal(params[name], name)} AS ${type})`
  })
}

/** A ClickHouse literal of `value`. @throws Error naming `name` for a value it cannot write */
function literal(value: unknown, name: string): string {
  if (typeof value === 'string') return quote(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Query parameter ${name} is not a finite number`)
    return String(value)
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (value === null) return 'NULL'
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, name)).join(', ')}]`
  throw new Error(`Query parameter ${name} must be a string, number, boolean, null or array`)
}

/** A single-quoted string literal: backslash, quote and NUL escaped, everything else as is. */
const quote = (text: string): string =>
  `'${text.replace(/[\\'\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`))}'`
