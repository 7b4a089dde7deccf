/**
 * The rule for an account's display name, wherever Better Auth creates or updates a user (sign-up,
 * `update-user`, any plugin): a string of at most {@link MAX_USER_NAME_LENGTH} characters (UTF-16 code
 * units, as JavaScript counts them) without NUL. The name is shown in every members list of the
 * account's organizations, so its size is bounded here, at the one place every write goes through.
 */
import { APIError } from 'better-auth/api'
import { z } from 'zod'
import { isNulFree, nulMessage } from '../shared/nul-free.js'

/** The longest display name accepted, in characters. */
export const MAX_USER_NAME_LENGTH = 200

/** Better Auth's error code for a refused name (the dashboard shows it under the Name field). */
export const INVALID_NAME_CODE = 'INVALID_NAME'

const userName = z
  .string({ error: 'name must be a string' })
  .max(MAX_USER_NAME_LENGTH, `name must be at most ${MAX_USER_NAME_LENGTH} characters`)
  .refine(isNulFree, nulMessage('name'))

/**
 * Check the `name` of user data about to be written; data without a `name` key (an update of other
 * fields) passes.
 * @throws APIError 400 `{code: 'INVALID_NAME', message: 'name must be at most 200 characters'}` (or
 *   `name must be a string`, `name must not contain NUL characters`), which Better Auth answers as is
 */
export function checkUserName(data: { name?: unknown }): void {
  if (!('name' in data) || data.name === undefined) return
  const parsed = userName.safeParse(data.name)
  if (parsed.success) return
  throw new APIError('BAD_REQUEST', {
    code: INVALID_NAME_CODE,
    message: parsed.error.issues[0]?.message ?? 'name is invalid',
  })
}
