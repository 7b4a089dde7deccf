/**
 * Keeps Better Auth's AsyncLocalStorage off the tracking path. On Node 20 an AsyncLocalStorage that
 * has run once turns on promise hooks for the whole process, and they stay on: every `await` of every
 * request then pays for context propagation (a measurable share of a promise-heavy route's throughput:
 * bench/README.md "ingest"). Better Auth runs each of its API calls inside three storages (request state, endpoint
 * context, adapter transaction), so after the first sign-in every `POST /api/track` would pay.
 *
 * `QuietAsyncLocalStorage` is an AsyncLocalStorage that disables itself whenever none of its `run`s
 * is in flight, which turns the hooks off again once no other storage is enabled; Better Auth finds
 * instances of it where it keeps its storages (the process-wide object under
 * `Symbol.for('better-auth:global')`, created here first), so its calls work as before and the rest
 * of the time nothing is hooked. If a later Better Auth keeps its storages elsewhere, it creates plain
 * ones and only the speed-up is lost (`test/auth-async-storage.test.ts` notices).
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** An AsyncLocalStorage enabled only while one of its `run` callbacks (or their promises) is pending. */
export class QuietAsyncLocalStorage<T> extends AsyncLocalStorage<T> {
  #running = 0

  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    this.#running++
    let result: R
    try {
      result = super.run(store, callback, ...args)
    } catch (error) {
      this.#done()
      throw error
    }
    if (result instanceof Promise) {
      return result.finally(() => this.#done()) as R
    }
    this.#done()
    return result
  }

  /** Runs in flight (for tests). */
  get running(): number {
    return this.#running
  }

  #done(): void {
    this.#running--
    if (this.#running === 0) this.disable()
  }
}

/** Where Better Auth 1.x keeps its storages: `globalThis[Symbol.for('better-auth:global')].context`. */
const BETTER_AUTH_GLOBAL = Symbol.for('better-auth:global')
const STORAGE_KEYS = [
  'requestStateAsyncStorage',
  'endpointContextAsyncStorage',
  'adapterAsyncStorage',
] as const

type BetterAuthGlobal = { epoch?: number; context?: Record<string, unknown> }

/**
 * Give Better Auth quiet storages before it makes its own; call before its first API call. Keys it
 * already filled are left alone. Idempotent.
 */
export function installQuietAuthStorage(): void {
  const global = globalThis as unknown as Record<symbol, BetterAuthGlobal | undefined>
  // Better Auth creates this object on first use (`{version, epoch, context}`) and keeps an existing one,
  // filling in its version.
  global[BETTER_AUTH_GLOBAL] ??= { epoch: 1, context: {} }
  const holder = global[BETTER_AUTH_GLOBAL]
  holder.context ??= {}
  for (const key of STORAGE_KEYS) holder.context[key] ??= new QuietAsyncLocalStorage()
}
