/**
 * User-scoped API keys: created by a user with a name, the value shown once, stored as a SHA-256
 * hash. A key reaches every site of every organization its user belongs to, with the user's role.
 *
 * Format: `pl_` + 43 base64url characters (256 random bits). SHA-256 (not a slow hash) is right for
 * 256-bit random secrets: there is nothing to brute-force, and verification stays cheap on the hot path.
 * Verified keys are cached for `cacheTtlMs` (default 60 s) so the ingest path never writes or reads the
 * database per request; deleting a key announces it on the change feed, which evicts it from this
 * process at once and, with Redis, from every other node as soon as the message arrives (else within
 * the TTL). Membership is not part of it: a removed member's key is refused by the role lookup, which
 * drops the membership as soon as its change is announced.
 *
 * A key has a scope (`key-scope.ts`: `track`, `read` or `full`, the default) and an optional expiry,
 * after which it verifies as unknown. `lastUsedAt` is written at most once a minute per key and process
 * (never on each request); this process's list shows its own latest use at once.
 */
import crypto from 'node:crypto'
import {
  type ApiKey,
  type CreateApiKeyBody,
  createApiKeyBody,
  MAX_API_KEYS_PER_USER,
} from '@pathlight/protocol'
import type { ChangeFeed } from '../shared/change-feed.js'
import { badRequest, conflict, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import { createTtlCache } from '../shared/ttl-cache.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { API_KEY_SCOPES, type ApiKeyScope } from './key-scope.js'

/** An API key as listed, never the value: the protocol's wire shape. */
export type ApiKeyInfo = ApiKey

/**
 * A parsed new key (`createApiKeyBody`); `scope` and `expiresAt` default as there (`full`, never) when
 * left out.
 */
export type NewApiKey = Omit<CreateApiKeyBody, 'scope' | 'expiresAt'> &
  Partial<Pick<CreateApiKeyBody, 'scope' | 'expiresAt'>>

/** A verified key: its user, id and scope. */
export interface VerifiedKey {
  userId: string
  keyId: string
  scope: ApiKeyScope
}

/** The request body and the cap, the protocol's (`account-input.ts`). */
export { createApiKeyBody, MAX_API_KEYS_PER_USER }

/** Uses of a key closer together than this write `last_used_at` once. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000

const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex')

export interface ApiKeys {
  /**
   * Create a key from a parsed body.
   * @returns the record and the key value (shown once)
   * @throws AppError 400 naming `expiresAt` when it is not in the future, 409 when the user already
   * holds {@link MAX_API_KEYS_PER_USER} keys
   */
  create(userId: string, body: NewApiKey): Promise<ApiKeyInfo & { key: string }>
  list(userId: string): Promise<ApiKeyInfo[]>
  /** @throws AppError 404 when the user has no key with that id */
  remove(userId: string, id: string): Promise<void>
  /** @returns the owner's user id, the key id and its scope, or null for an unknown or expired key */
  verify(key: string): Promise<VerifiedKey | null>
}

/** API keys over the metadata store, with a per-process verification cache. */
export function createApiKeys(
  db: MetadataDb,
  options: { clock?: Clock; cacheTtlMs?: number; changes?: ChangeFeed } = {},
): ApiKeys {
  const clock = options.clock ?? systemClock
  const ttl = options.cacheTtlMs ?? 60_000
  // Keyed by the presented key itself (memory only), so a cache hit costs no hashing.
  const cache = createTtlCache<string, { hash: string; value: VerifiedKey | null }>({
    ttlMs: ttl,
    maxEntries: 10_000,
    clock,
  })
  // A deleted key, or every key of a deleted user, announced by any node.
  options.changes?.subscribe((change) => {
    if (change.kind === 'api_key') cache.deleteWhere((entry) => entry.value?.keyId === change.keyId)
    else if (change.kind === 'user') cache.deleteWhere((entry) => entry.value?.userId === change.userId)
  })
  /** Latest use per key id seen by this process, and when it was last written (epoch ms). */
  const lastUse = new Map<string, { at: number; written: number }>()
  const noteUse = (keyId: string, now: number) => {
    const entry = lastUse.get(keyId)
    if (entry && now - entry.written < LAST_USED_WRITE_INTERVAL_MS) {
      entry.at = now
      return
    }
    if (lastUse.size > 10_000) lastUse.clear()
    lastUse.set(keyId, { at: now, written: now })
    // Not awaited: a failed write only leaves last_used_at older.
    db.updateTable('api_key')
      .set({ last_used_at: new Date(now).toISOString() })
      .where('id', '=', keyId)
      .execute()
      .catch(() => {})
  }
  const lastUsedAt = (id: string, stored: string | null) => {
    const seen = lastUse.get(id)?.at
    if (seen === undefined) return stored
    const iso = new Date(seen).toISOString()
    return stored === null || iso > stored ? iso : stored
  }

  return {
    async create(userId, body) {
      const expiresAt = body.expiresAt == null ? null : new Date(body.expiresAt).toISOString()
      if (expiresAt !== null && Date.parse(expiresAt) <= clock()) {
        throw badRequest('Invalid API key', {
          formErrors: [],
          fieldErrors: { expiresAt: ['expiresAt must be in the future'] },
        })
      }
      const key = `pl_${crypto.randomBytes(32).toString('base64url')}`
      const record = {
        id: crypto.randomUUID(),
        user_id: userId,
        name: body.name,
        prefix: key.slice(0, 10),
        key_hash: hashKey(key),
        scope: body.scope ?? 'full',
        created_at: isoNow(clock),
        expires_at: expiresAt,
        last_used_at: null,
      }
      await db.transaction().execute(async (trx) => {
        // Writing the user's row first holds its lock (PostgreSQL) or the write lock (SQLite) until
        // commit, so concurrent creates of one user count one after another and never pass the cap.
        await trx
          .updateTable('user')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', userId)
          .execute()
        const held = await trx
          .selectFrom('api_key')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
        if (Number(held.n) >= MAX_API_KEYS_PER_USER) {
          throw conflict(
            `At most ${MAX_API_KEYS_PER_USER} API keys per user: delete one you no longer use to create another`,
          )
        }
        await trx.insertInto('api_key').values(record).execute()
      })
      return {
        id: record.id,
        name: record.name,
        prefix: record.prefix,
        scope: record.scope,
        createdAt: record.created_at,
        expiresAt,
        lastUsedAt: null,
        key,
      }
    },
    async list(userId) {
      const rows = await db
        .selectFrom('api_key')
        .select(['id', 'name', 'prefix', 'scope', 'created_at', 'expires_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute()
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        scope: toScope(r.scope),
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        lastUsedAt: lastUsedAt(r.id, r.last_used_at),
      }))
    },
    async remove(userId, id) {
      const row = await db
        .deleteFrom('api_key')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('key_hash')
        .executeTakeFirst()
      if (!row) throw notFound('API key not found')
      cache.deleteWhere((entry) => entry.hash === row.key_hash)
      await options.changes?.announce({ kind: 'api_key', keyId: id })
    },
    async verify(key) {
      if (!key.startsWith('pl_') || key.length > 100) return null
      const now = clock()
      const hit = cache.get(key)
      if (hit !== undefined) {
        if (hit.value) noteUse(hit.value.keyId, now)
        return hit.value
      }
      const hash = hashKey(key)
      const row = await db
        .selectFrom('api_key')
        .select(['id', 'user_id', 'scope', 'expires_at'])
        .where('key_hash', '=', hash)
        .executeTakeFirst()
      const expiry = row?.expires_at ? Date.parse(row.expires_at) : Number.POSITIVE_INFINITY
      const value =
        row && expiry > now ? { userId: row.user_id, keyId: row.id, scope: toScope(row.scope) } : null
      cache.set(key, { hash, value }, value ? Math.max(0, Math.min(ttl, expiry - clock())) : ttl)
      if (value) noteUse(value.keyId, now)
      return value
    },
  }
}

/** A stored scope; anything unknown reads as the narrowest (`track`), never as more than was granted. */
const toScope = (value: string): ApiKeyScope =>
  (API_KEY_SCOPES as readonly string[]).includes(value) ? (value as ApiKeyScope) : 'track'
