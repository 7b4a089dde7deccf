/**
 * `user:trait:<key>` filters of the Query API: traits live in the metadata store (`user_profile`),
 * not beside the events, so a trait condition is resolved before the SQL into the identified users
 * whose trait passes it, and becomes a condition on the session's user id (`visit:user_id`). A trait
 * value compares as text (a string as it is, any other JSON value as its JSON text). Every operator,
 * the `_not` forms included, keeps only users that have the key: anonymous visitors and users without
 * the trait never pass. Bounded: a site's first `MAX_TRAIT_PROFILES` profiles are read and at most
 * `MAX_TRAIT_USERS` may pass; beyond either, a 400 naming `filters`.
 */
import RE2 from 're2'
import { badRequest } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Condition } from './report-query.js'

/** Profiles of a site a trait filter reads, and users it may keep. */
export const MAX_TRAIT_PROFILES = 100_000
export const MAX_TRAIT_USERS = 10_000

const invalid = (message: string) =>
  badRequest(`Invalid query: filters: ${message}`, { fieldErrors: { filters: [message] }, formErrors: [] })

/** A trait's value as the filter compares it. */
const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** Whether a value passes a condition (patterns RE2-checked before). */
function passes(condition: Condition, text: string): boolean {
  const fold = (t: string) => (condition.caseSensitive ? t : t.toLowerCase())
  const value = fold(text)
  let positive: boolean
  switch (condition.operator) {
    case 'is':
    case 'is_not':
      positive = condition.values.some((v) => fold(v) === value)
      break
    case 'contains':
    case 'contains_not':
      positive = condition.values.some((v) => value.includes(fold(v)))
      break
    default:
      positive = condition.values.some((v) => new RE2(v, condition.caseSensitive ? 'u' : 'iu').test(text))
  }
  return condition.operator.endsWith('_not') ? !positive : positive
}

/**
 * The condition on `visit:user_id` a trait condition stands for.
 * @throws AppError 400 naming `filters` when the site has more than `MAX_TRAIT_PROFILES` profiles or
 *   more than `MAX_TRAIT_USERS` pass
 */
export async function traitCondition(
  db: MetadataDb,
  siteId: number,
  condition: Condition,
): Promise<Condition> {
  const key = condition.dimension.slice('user:trait:'.length)
  const rows = await db
    .selectFrom('user_profile')
    .select(['user_id', 'traits'])
    .where('site_id', '=', siteId)
    .orderBy('user_id')
    .limit(MAX_TRAIT_PROFILES + 1)
    .execute()
  if (rows.length > MAX_TRAIT_PROFILES) {
    throw invalid(`trait filters read at most ${MAX_TRAIT_PROFILES} user profiles; this site has more`)
  }
  const users: string[] = []
  for (const row of rows) {
    let traits: unknown
    try {
      traits = JSON.parse(row.traits)
    } catch {
      continue
    }
    if (traits === null || typeof traits !== 'object' || !Object.hasOwn(traits, key)) continue
    const trait = (traits as Record<string, { value?: unknown }>)[key]
    if (trait && passes(condition, textOf(trait.value))) users.push(row.user_id)
  }
  if (users.length > MAX_TRAIT_USERS) {
    throw invalid(`${condition.dimension} matches more than ${MAX_TRAIT_USERS} users: narrow it`)
  }
  return {
    kind: 'condition',
    operator: 'is',
    dimension: 'visit:user_id',
    values: users,
    caseSensitive: true,
    stored: true,
  }
}
