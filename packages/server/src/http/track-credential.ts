/**
 * The API key of a tracking request: the `Authorization: Bearer` header's token, or the body's
 * `api_key` (Rybbit's server SDK sends its key there). Both count alike: same checks, same per-key
 * limit, same bypasses. Given both and different, the request is refused (400, naming `api_key`).
 * The body's key is removed from the body before the pipeline sees it, so it is never journaled.
 */
import { bearerToken } from '../auth/bearer-token.js'

/** A request's key as the tracking pipeline takes it, or the conflict that refuses the request. */
export type TrackCredential =
  | { ok: true /** `Bearer <key>`, the header as sent, or undefined (keyless). */; authorization?: string }
  | { ok: false; message: string }

/**
 * @param authorization the request's Authorization header
 * @param body the parsed JSON body (any value; only an object's string `api_key` counts)
 */
export function trackCredentialOf(authorization: string | undefined, body: unknown): TrackCredential {
  const bodyKey = bodyApiKeyOf(body)
  if (bodyKey === undefined) return { ok: true, authorization }
  const headerKey = bearerToken(authorization)
  if (authorization !== undefined && authorization !== '' && headerKey !== bodyKey) {
    return { ok: false, message: 'differs from the key of the Authorization header' }
  }
  return { ok: true, authorization: `Bearer ${bodyKey}` }
}

/** The body's `api_key` when it is a non-empty string (trimmed); an empty one counts as none. */
export function bodyApiKeyOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
  const key = (body as Record<string, unknown>).api_key
  return typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined
}

/** The body without its string `api_key` (the same value when it has none; other types are left for the schema to refuse). */
export function withoutApiKey(body: unknown): unknown {
  if (bodyApiKeyOf(body) === undefined) return body
  const { api_key: _key, ...rest } = body as Record<string, unknown>
  return rest
}
