/**
 * Throttling of authentication attempts (sign-in, sign-up, password checks, two-factor codes): at most `accountMax`
 * failed attempts per account and client address, and `addressMax` per client address whatever the
 * account, in a fixed window of `windowMs` (defaults 5, 50 and 15 minutes). Beyond either, attempts are
 * refused with the seconds until the window ends (`Retry-After`), even with the right password.
 *
 * Password resets (`password_reset`: reset mail requests and tokens) have a budget of their own, with
 * the same limits: their account and address counters are apart from the others', so reset requests
 * for an account never lock its sign-in, nor the address's other attempts (a shared NAT).
 *
 * Every attempt is counted when it starts (so a burst of parallel guesses cannot slip under the limit);
 * a success takes it back: it resets the account's counter and subtracts one from the address's. An
 * attempt that failed for the server's own reasons (5xx) is taken back too. IPv6 clients are counted
 * per /64, the block one subscriber usually holds. Accounts and addresses are hashed into counter keys.
 * Counters live in this process or, with REDIS_URL, in Redis (shared by every node).
 */
import crypto from 'node:crypto'
import type { IngestStats } from '@pathlight/protocol'
import ipaddr from 'ipaddr.js'
import type { AttemptCounter } from './attempt-counter.js'

/**
 * What an attempt tries to do; counted separately in the stats. `two_factor`: a sign-in code;
 * `password_reset`: a reset mail requested or a reset token used (counted in a budget of its own).
 */
export type AuthAction = 'sign_in' | 'sign_up' | 'password' | 'two_factor' | 'password_reset'

export interface AuthAttempt {
  action: AuthAction
  /**
   * The account it names, if any: an email (sign-in, sign-up), `user:<id>` (a signed-in user's password
   * check) or `two-factor:<id>` (a code for the user's sign-in or enrolment). Each is its own counter.
   */
  account: string | undefined
  /** The client address (`request.ip`, which honours TRUST_PROXY). */
  address: string
}

/** How an attempt ended: success (2xx), failure (refused credentials, 4xx) or a server error (5xx). */
export type AttemptOutcome = 'success' | 'failure' | 'error'

export type AttemptStart =
  | { allowed: true; finish(outcome: AttemptOutcome): Promise<void> }
  | { allowed: false; retryAfterSeconds: number }

/**
 * Failed attempts by action and attempts refused with 429, since this process started: the ingest
 * stats' `auth` (the protocol's).
 */
export type AuthThrottleStats = IngestStats['auth']

export interface AuthThrottle {
  /** Count an attempt; refused when its account+address or its address is over the limit. */
  begin(attempt: AuthAttempt): Promise<AttemptStart>
  stats(): AuthThrottleStats
}

export interface AuthThrottleLimits {
  accountMax: number
  addressMax: number
  windowMs: number
}

const hash = (value: string) => crypto.createHash('sha256').update(value).digest('base64url').slice(0, 32)

/** An address's counting unit: the IPv4 address, or the /64 of an IPv6 one. */
export function addressUnit(address: string): string {
  if (!ipaddr.isValid(address)) return address
  const parsed = ipaddr.process(address)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`
}

export function createAuthThrottle(
  counter: AttemptCounter,
  limits: AuthThrottleLimits,
  clock: () => number = Date.now,
): AuthThrottle {
  const stats: AuthThrottleStats = {
    failures: { sign_in: 0, sign_up: 0, password: 0, two_factor: 0, password_reset: 0 },
    throttled: 0,
  }
  return {
    async begin({ action, account, address }) {
      const budget = action === 'password_reset' ? 'reset-' : ''
      const addressKey = `${budget}addr:${hash(addressUnit(address))}`
      const accountKey =
        account === undefined
          ? undefined
          : `${budget}acct:${hash(`${account.trim().toLowerCase()}\n${addressUnit(address)}`)}`
      const keys = accountKey ? [addressKey, accountKey] : [addressKey]
      const [byAddress, byAccount] = await counter.add(keys, limits.windowMs)
      const over = [
        byAddress && byAddress.count > limits.addressMax ? byAddress.resetAt : undefined,
        byAccount && byAccount.count > limits.accountMax ? byAccount.resetAt : undefined,
      ].filter((resetAt) => resetAt !== undefined)
      if (over.length > 0) {
        stats.throttled++
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((Math.max(...over) - clock()) / 1000)),
        }
      }
      return {
        allowed: true,
        async finish(outcome) {
          if (outcome === 'failure') {
            stats.failures[action]++
            return
          }
          await counter.subtract(addressKey)
          if (!accountKey) return
          if (outcome === 'success') await counter.reset(accountKey)
          else await counter.subtract(accountKey)
        },
      }
    },
    stats: () => ({ failures: { ...stats.failures }, throttled: stats.throttled }),
  }
}
