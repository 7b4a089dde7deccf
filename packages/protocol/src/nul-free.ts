/**
 * Text without NUL (U+0000). PostgreSQL's `text` cannot hold one, and a query that carries one fails
 * instead of matching nothing, while SQLite stores it. So, on either store alike: stored text refuses
 * NUL (a 400 naming the field), and a path parameter that holds one names nothing (a 404).
 */

/** Whether `text` holds no NUL character. */
export const isNulFree = (text: string): boolean => !text.includes('\u0000')

/** The problem of a field that holds one: `name must not contain NUL characters`. */
export const nulMessage = (field?: string): string =>
  `${field ? `${field} ` : ''}must not contain NUL characters`
