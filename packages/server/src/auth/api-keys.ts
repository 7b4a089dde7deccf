/**
 * User-scoped API keys (spec part 5): created with a name, the value shown once, stored as a SHA-256
 * hash. A key reaches every site of every organization its user belongs to, with the user's role.
 *
 * Format: `pl_` + 43 base64url characters (256 random bits). SHA-256 (not a slow hash) is right for
 * 256-bit random secrets: there is nothing to brute-force, and verification stays cheap on the hot path.
 * Verified keys are cached for `cacheTtlMs` (default 60 s) so the ingest path never writes or reads the
 * database per request; deleting a key evicts it from this process at once and from others within the TTL.
 */
import crypto from 'node:crypto'
import { z } from 'zod'
import { badRequest, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** An API key as listed: never the value. */
export interface ApiKeyInfo {
  id: string
  name: string
  /** First 10 characters of the key, e.g. 'pl_AbCdEfG'. */
  prefix: string
  createdAt: string
  lastUsedAt: string | null
}

export const createApiKeyBody = z.object({
  name: z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters'),
})

const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex')

export interface ApiKeys {
  /** @returns the record and the key value (shown once). @throws AppError 400 when the name is invalid */
  create(userId: string, input: unknown): Promise<ApiKeyInfo & { key: string }>
  list(userId: string): Promise<ApiKeyInfo[]>
  /** @throws AppError 404 when the user has no key with that id */
  remove(userId: string, id: string): Promise<void>
  /** @returns the owner's user id and the key id, or null for an unknown key */
  verify(key: string): Promise<{ userId: string; keyId: string } | null>
}

/** API keys over the metadata store, with a per-process verification cache. */
export function createApiKeys(db: MetadataDb, options: { clock?: Clock; cacheTtlMs?: number } = {}): ApiKeys {
  const clock = options.clock ?? systemClock
  const ttl = options.cacheTtlMs ?? 60_000
  // Keyed by the presented key itself (memory only), so a cache hit costs no hashing.
  const cache = new Map<
    string,
    { hash: string; value: { userId: string; keyId: string } | null; expires: number }
  >()

  return {
    async create(userId, input) {
      const parsed = createApiKeyBody.safeParse(input)
      if (!parsed.success) throw badRequest('Invalid API key', z.flattenError(parsed.error))
      const key = `pl_${crypto.randomBytes(32).toString('base64url')}`
      const record = {
        id: crypto.randomUUID(),
        user_id: userId,
        name: parsed.data.name,
        prefix: key.slice(0, 10),
        key_hash: hashKey(key),
        created_at: isoNow(clock),
        last_used_at: null,
      }
      await db.insertInto('api_key').values(record).execute()
      return {
        id: record.id,
        name: record.name,
        prefix: record.prefix,
        createdAt: record.created_at,
        lastUsedAt: null,
        key,
      }
    },
    async list(userId) {
      const rows = await db
        .selectFrom('api_key')
        .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute()
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        createdAt: r.created_at,
        lastUsedAt: r.last_used_at,
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
      for (const [key, entry] of cache) if (entry.hash === row.key_hash) cache.delete(key)
    },
    async verify(key) {
      if (!key.startsWith('pl_') || key.length > 100) return null
      const now = clock()
      const hit = cache.get(key)
      if (hit && hit.expires > now) return hit.value
      const hash = hashKey(key)
      const row = await db
        .selectFrom('api_key')
        .select(['id', 'user_id'])
        .where('key_hash', '=', hash)
        .executeTakeFirst()
      const value = row ? { userId: row.user_id, keyId: row.id } : null
      if (cache.size > 10_000) cache.clear()
      cache.set(key, { hash, value, expires: now + ttl })
      return value
    },
  }
}
