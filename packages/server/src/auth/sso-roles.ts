/**
 * Organization membership from the identity provider. At each SSO sign-in the ID token's role claim
 * (`OIDC_ROLE_CLAIM`: a string or an array of strings, a dotted path such as `realm_access.roles` for
 * a nested one) is matched against `OIDC_ROLE_MAP`; the highest role matched (owner > admin > member)
 * becomes the user's role in the SSO organization (`OIDC_ORGANIZATION`, made at first use), added or
 * changed as needed, and a user no group maps is removed from it. Each change is audited (`member.added`,
 * `member.role_changed`, `member.removed`, details `{source: 'sso'}`) in its transaction and announced on
 * the change feed. The organization's last owner is never demoted or removed this way (it would leave
 * the organization without one): the change is skipped and audited as `sso.refused`.
 */
import crypto from 'node:crypto'
import type { Role } from '@pathlight/protocol'
import { recordAudit } from '../audit/audit-log.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { isoNow } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting, setSetting } from '../storage/metadata/instance-settings.js'
import type { OidcSettings } from './oidc-settings.js'

/** The instance setting holding the id of the SSO organization, once made. */
export const SSO_ORGANIZATION_SETTING = 'sso_organization_id'

const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1 }

/** The values of a claim at a dotted path, as strings (a string claim is one value). */
function claimValues(claims: Record<string, unknown>, path: string): string[] {
  let value: unknown = claims[path]
  if (value === undefined && path.includes('.')) {
    value = path
      .split('.')
      .reduce<unknown>(
        (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
        claims,
      )
  }
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** The role the claims give, the highest matched; null when no value of the claim is mapped. */
export function roleFromClaims(
  claims: Record<string, unknown>,
  oidc: Pick<OidcSettings, 'roleClaim' | 'roleMap'>,
): Role | null {
  let best: Role | null = null
  for (const value of claimValues(claims, oidc.roleClaim)) {
    const role = oidc.roleMap.get(value)
    if (role && (best === null || RANK[role] > RANK[best])) best = role
  }
  return best
}

/**
 * The SSO organization's id, made (named `oidc.organization`, created by `userId`) when it does not
 * exist yet. An organization of that name made before is taken over rather than duplicated.
 */
export async function ssoOrganizationId(db: MetadataDb, name: string, userId: string): Promise<string> {
  const known = await getSetting(db, SSO_ORGANIZATION_SETTING)
  if (known && (await db.selectFrom('organization').select('id').where('id', '=', known).executeTakeFirst()))
    return known
  const named = await db
    .selectFrom('organization')
    .select('id')
    .where('name', '=', name)
    .orderBy('created_at')
    .executeTakeFirst()
  const id = named?.id ?? crypto.randomUUID()
  if (!named) {
    await db
      .insertInto('organization')
      .values({
        id,
        name,
        slug: `${
          name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '') || 'sso'
        }-${id.slice(0, 8)}`,
        created_by: userId,
        created_at: isoNow(),
      })
      .execute()
  }
  await setSetting(db, SSO_ORGANIZATION_SETTING, id)
  return id
}

/** What a sign-in did to the membership. */
export type MembershipChange =
  | { kind: 'unchanged'; role: Role | null }
  | { kind: 'added'; role: Role }
  | { kind: 'role_changed'; from: Role; role: Role }
  | { kind: 'removed'; from: Role }
  | { kind: 'kept_last_owner'; wanted: Role | null }

/**
 * Make the user's membership of the organization what the provider says: `role`, or none for null.
 * Audited and announced as the module comment says.
 */
export async function applySsoMembership(
  { db, changes }: { db: MetadataDb; changes?: ChangeFeed },
  organizationId: string,
  userId: string,
  role: Role | null,
  /** Who made the change: the provider at a sign-in, or an operator's command. */
  source: 'sso' | 'operator' = 'sso',
): Promise<MembershipChange> {
  const change = await db.transaction().execute(async (trx): Promise<MembershipChange> => {
    const current = await trx
      .selectFrom('member')
      .select(['id', 'role'])
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if ((current?.role ?? null) === role) return { kind: 'unchanged', role }
    if (current?.role === 'owner') {
      const owners = await trx
        .selectFrom('member')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow()
      if (Number(owners.n) <= 1) {
        await recordAudit(trx, {
          organizationId,
          actorUserId: userId,
          action: 'sso.refused',
          details: { reason: 'last_owner', wanted: role },
        })
        return { kind: 'kept_last_owner', wanted: role }
      }
    }
    const audit = (
      action: 'member.added' | 'member.role_changed' | 'member.removed',
      details: Record<string, unknown>,
    ) =>
      recordAudit(trx, {
        organizationId,
        actorUserId: userId,
        action,
        details: { source, userId, ...details },
      })
    if (!current && role) {
      await trx
        .insertInto('member')
        .values({
          id: crypto.randomUUID(),
          organization_id: organizationId,
          user_id: userId,
          role,
          created_at: isoNow(),
        })
        .execute()
      await audit('member.added', { role })
      return { kind: 'added', role }
    }
    if (current && role) {
      await trx.updateTable('member').set({ role }).where('id', '=', current.id).execute()
      await audit('member.role_changed', { from: current.role, to: role })
      return { kind: 'role_changed', from: current.role, role }
    }
    if (!current) return { kind: 'unchanged', role }
    await trx.deleteFrom('member').where('id', '=', current.id).execute()
    await audit('member.removed', { role: current.role })
    return { kind: 'removed', from: current.role }
  })
  if (change.kind !== 'unchanged' && change.kind !== 'kept_last_owner') {
    await changes?.announce({ kind: 'member', organizationId, userId })
  }
  return change
}
