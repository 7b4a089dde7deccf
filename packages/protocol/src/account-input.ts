/**
 * The bodies of the signed-in user's own endpoints: a new API key and a password change, with the
 * messages a 400 names the field by. That a key's `expiresAt` lies in the future, and that the current
 * password is right, are the server's checks.
 */
import { z } from 'zod'
import { API_KEY_SCOPES } from './enums.js'
import { nameField } from './name-field.js'

/** The most API keys one user may hold; creating one more answers 409 until one is deleted. */
export const MAX_API_KEYS_PER_USER = 50

/**
 * A new API key: `name` (1-100 characters), `scope` (default `full`), `expiresAt` (an ISO 8601
 * date-time with an offset, or null for never; default null). Unknown fields are refused.
 */
export const createApiKeyBody = z.strictObject({
  name: nameField(),
  scope: z
    .enum(API_KEY_SCOPES, { error: `scope must be one of ${API_KEY_SCOPES.join(', ')}` })
    .default('full'),
  expiresAt: z.iso
    .datetime({ offset: true, error: 'expiresAt must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z' })
    .nullable()
    .default(null),
})

/** `{currentPassword, newPassword}`: the new one 8-256 characters. Unknown fields are refused. */
export const changePasswordBody = z.strictObject({
  currentPassword: z
    .string({ error: 'currentPassword is required' })
    .min(1, 'currentPassword is required')
    .max(256, 'currentPassword must be at most 256 characters'),
  newPassword: z
    .string({ error: 'newPassword is required' })
    .min(8, 'newPassword must be at least 8 characters')
    .max(256, 'newPassword must be at most 256 characters'),
})

/** A parsed new API key. */
export type CreateApiKeyBody = z.output<typeof createApiKeyBody>
/** A parsed password change. */
export type ChangePasswordBody = z.output<typeof changePasswordBody>
