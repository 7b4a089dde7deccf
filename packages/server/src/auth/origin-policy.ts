/**
 * Which page origins may send state-changing requests (POST, PUT, PATCH, DELETE) that carry the session
 * cookie: BASE_URL's origin and the operator's TRUSTED_ORIGINS. Without BASE_URL the service does not
 * know its public address, so it accepts the request's own host (`http://<Host>` or `https://<Host>`):
 * still a same-origin rule, since a cross-site page cannot make a browser send its own origin with our
 * Host. Used by the cookie routes (`http/caller.ts`) and by Better Auth's CSRF check (`better-auth.ts`),
 * so both agree.
 */
import { forbidden } from '../shared/errors.js'

export interface OriginPolicyOptions {
  /** BASE_URL, or the address derived from HOST and PORT when it is not set. */
  baseUrl: string
  /** Whether BASE_URL was set by the operator. */
  baseUrlConfigured: boolean
  /** Further trusted origins (`scheme://host[:port]`). */
  trustedOrigins: readonly string[]
}

export interface OriginPolicy {
  /** The trusted origins for a request that names `host` in its Host header. */
  trustedFor(host: string | undefined): string[]
  /**
   * Check a state-changing cookie request: its `Origin`, or without one its `Referer`, must be trusted.
   * @throws AppError 403 naming what was wrong (missing, or which origin is not trusted)
   */
  assertTrusted(headers: { origin?: string; referer?: string; host?: string }): void
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Whether a request method changes state (and so needs the origin check with a session cookie). */
export const isStateChanging = (method: string): boolean => STATE_CHANGING.has(method)

const originOf = (value: string): string | undefined => {
  if (!URL.canParse(value)) return undefined
  const { protocol, origin } = new URL(value)
  return protocol === 'http:' || protocol === 'https:' ? origin : undefined
}

export function createOriginPolicy({
  baseUrl,
  baseUrlConfigured,
  trustedOrigins,
}: OriginPolicyOptions): OriginPolicy {
  const fixed = [new URL(baseUrl).origin, ...trustedOrigins]
  const policy: OriginPolicy = {
    trustedFor(host) {
      if (baseUrlConfigured || !host) return fixed
      return [...fixed, ...[`http://${host}`, `https://${host}`].flatMap((o) => originOf(o) ?? [])]
    },
    assertTrusted({ origin, referer, host }) {
      const claimed = origin !== undefined && origin !== '' ? origin : referer
      if (claimed === undefined || claimed === '') {
        throw forbidden(
          'Cross-site request refused: a state-changing request with the session cookie must carry an Origin or Referer header',
        )
      }
      const actual = originOf(claimed)
      if (actual === undefined || !policy.trustedFor(host).includes(actual)) {
        throw forbidden(
          `Cross-site request refused: origin ${JSON.stringify(actual ?? claimed.slice(0, 200))} is not BASE_URL or a trusted origin (TRUSTED_ORIGINS)`,
        )
      }
    },
  }
  return policy
}
