/**
 * Text without NUL (U+0000). PostgreSQL's `text` cannot hold one, and a query that carries one fails
 * (`invalid byte sequence for encoding "UTF8": 0x00`, a 500) instead of matching nothing, while SQLite
 * stores it. So, on either store alike: stored text refuses NUL (a 400 naming the field), and a path
 * parameter that holds one names nothing (a 404, answered for every route in `app.ts`). The checks are
 * the protocol's, which the request schemas use.
 */
export { isNulFree, nulMessage } from '@pathlight/protocol'
