/**
 * What the query layer's compile step produces: ClickHouse SQL whose every user value is a
 * `{name:Type}` placeholder, and the values for those placeholders. Nothing from a request is ever
 * spliced into `sql`.
 */

/** A complete statement, ready for `EventsStore.query(sql, params)`. */
export interface CompiledQuery {
  sql: string
  params: Record<string, unknown>
}

/** A piece of SQL (a condition, a subquery) with the values of its placeholders. */
export interface SqlFragment {
  sql: string
  params: Record<string, unknown>
}
