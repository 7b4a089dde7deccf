/**
 * The rules for an account's display fields, wherever Better Auth creates or updates a user (sign-up,
 * `update-user`, any plugin): `name` a string of at most {@link MAX_USER_NAME_LENGTH} characters and
 * `image` (a picture's URL) of at most {@link MAX_USER_IMAGE_LENGTH}, both without NUL (UTF-16 code
 * units, as JavaScript counts them). Both are carried by every session answer and the name by every
 * members list of the account's organizations, so their size is bounded here, at the one place every
 * write goes through.
 */
import { APIError } from 'better-auth/api'
import { z } from 'zod'
import { isNulFree, nulMessage } from '../shared/nul-free.js'

/** The longest display name accepted, in characters. */
export const MAX_USER_NAME_LENGTH = 200

/** The longest `image` accepted, in characters (a URL; a data: URL of a picture does not fit). */
export const MAX_USER_IMAGE_LENGTH = 2048

/** Better Auth's error code for a refused name (the dashboard shows it under the Name field). */
export const INVALID_NAME_CODE = 'INVALID_NAME'

/** Better Auth's error code for a refused image. */
export const INVALID_IMAGE_CODE = 'INVALID_IMAGE'

const userName = z
  .string({ error: 'name must be a string' })
  .max(MAX_USER_NAME_LENGTH, `name must be at most ${MAX_USER_NAME_LENGTH} characters`)
  .refine(isNulFree, nulMessage('name'))

const userImage = z
  .string({ error: 'image must be a string' })
  .max(MAX_USER_IMAGE_LENGTH, `image must be at most ${MAX_USER_IMAGE_LENGTH} characters`)
  .refine(isNulFree, nulMessage('image'))
  .nullable()

/**
 * Check the `name` and `image` of user data about to be written; a key the data lacks (an update of
 * other fields) passes.
 * @throws APIError 400 `{code: 'INVALID_NAME', message: 'name must be at most 200 characters'}` (or
 *   `name must be a string`, `name must not contain NUL characters`; `INVALID_IMAGE` likewise for
 *   `image`), which Better Auth answers as is
 */
export function checkUserFields(data: { name?: unknown; image?: unknown }): void {
  check(data.name, userName, INVALID_NAME_CODE, 'name')
  check(data.image, userImage, INVALID_IMAGE_CODE, 'image')
}

function check(value: unknown, schema: z.ZodType, code: string, field: string): void {
  if (value === undefined) return
  const parsed = schema.safeParse(value)
  if (parsed.success) return
  throw new APIError('BAD_REQUEST', {
    code,
    message: parsed.error.issues[0]?.message ?? `${field} is invalid`,
  })
}
