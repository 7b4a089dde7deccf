/**
 * Identified users' profiles in the metadata store (`user_profile`, migration 016): a row per user id
 * a site sent (in tracking or `POST /api/identify`), its traits as `{key: {value, changedAt}}`, the
 * last value per key and when it last changed (ISO 8601). Bounded: 100 traits per user (each identify
 * at most 50, keys of at most 64 characters, values of at most 1,024 characters of JSON). Anonymous
 * visitors never get a profile. Personal data: erased and exported with the user's events
 * (`privacy/visitor-data.ts`).
 */
import { MAX_TRAITS_PER_USER } from '@pathlight/protocol'
import { sql } from 'kysely'
import type { MetadataDb } from '../storage/metadata/db.js'

/** One trait: its last value and when it changed to it. */
export interface Trait {
  value: unknown
  changedAt: string
}

/** A profile as stored. */
export interface UserProfile {
  userId: string
  traits: Record<string, Trait>
  /** When the user was first seen identified, and when the profile last changed (ISO 8601). */
  createdAt: string
  updatedAt: string
}

/** The traits would exceed `MAX_TRAITS_PER_USER`: a 400 naming `traits`. */
export class TooManyTraitsError extends Error {
  constructor() {
    super(`a user keeps at most ${MAX_TRAITS_PER_USER} traits`)
  }
}

const rowToProfile = (row: { user_id: string; traits: string; created_at: string; updated_at: string }) => ({
  userId: row.user_id,
  traits: parseTraits(row.traits),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
})

/** Make sure `userId` has a profile (tracking with a user id); an existing one is left as it is. */
export async function noteUser(db: MetadataDb, siteId: number, userId: string, at: string): Promise<void> {
  await db
    .insertInto('user_profile')
    .values({ site_id: siteId, user_id: userId, traits: '{}', created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['site_id', 'user_id']).doNothing())
    .execute()
}

/**
 * Merge `traits` into the profile (created when missing): a key whose value differs from the stored
 * one (as JSON) takes it with `changedAt = at`; an equal value keeps its time.
 * @throws TooManyTraitsError when the profile would hold more than `MAX_TRAITS_PER_USER` traits
 */
export async function mergeTraits(
  db: MetadataDb,
  siteId: number,
  userId: string,
  traits: Record<string, unknown>,
  at: string,
): Promise<UserProfile> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('user_profile')
      .values({ site_id: siteId, user_id: userId, traits: '{}', created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['site_id', 'user_id']).doNothing())
      .execute()
    const row = await trx
      .selectFrom('user_profile')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
    const stored = parseTraits(row.traits)
    let changed = false
    for (const [key, value] of Object.entries(traits)) {
      const before = stored[key]
      if (before && JSON.stringify(before.value) === JSON.stringify(value ?? null)) continue
      stored[key] = { value: value ?? null, changedAt: at }
      changed = true
    }
    if (Object.keys(stored).length > MAX_TRAITS_PER_USER) throw new TooManyTraitsError()
    if (!changed) return rowToProfile(row)
    const text = JSON.stringify(stored)
    await trx
      .updateTable('user_profile')
      .set({ traits: text, updated_at: at })
      .where('site_id', '=', siteId)
      .where('user_id', '=', userId)
      .execute()
    return rowToProfile({ ...row, traits: text, updated_at: at })
  })
}

/** The profile of `userId`, or null. */
export async function findProfile(
  db: MetadataDb,
  siteId: number,
  userId: string,
): Promise<UserProfile | null> {
  const row = await db
    .selectFrom('user_profile')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row ? rowToProfile(row) : null
}

/**
 * The site's profiles whose user id or traits' text contains `search` (case-insensitive), most recently
 * changed first, at most `limit`.
 */
export async function listProfiles(
  db: MetadataDb,
  siteId: number,
  options: { search?: string; limit: number },
): Promise<UserProfile[]> {
  let query = db.selectFrom('user_profile').selectAll().where('site_id', '=', siteId)
  const search = options.search?.trim().toLowerCase()
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(user_id)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(traits)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    )
  }
  const rows = await query.orderBy('updated_at', 'desc').orderBy('user_id').limit(options.limit).execute()
  return rows.map(rowToProfile)
}

/** Delete the user's profile and the visitor links to them. @returns whether a profile was deleted */
export async function eraseProfile(db: MetadataDb, siteId: number, userId: string): Promise<boolean> {
  await db.deleteFrom('visitor_link').where('site_id', '=', siteId).where('user_id', '=', userId).execute()
  const deleted = await db
    .deleteFrom('user_profile')
    .where('site_id', '=', siteId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return Number(deleted.numDeletedRows) > 0
}

function parseTraits(text: string): Record<string, Trait> {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, Trait>)
      : {}
  } catch {
    return {}
  }
}
