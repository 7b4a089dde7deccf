/**
 * Organizations and their members. An organization owns sites; each member has one role:
 * `owner`, `admin` or `member`. The creator of an organization is its first owner.
 */
import crypto from 'node:crypto'
import type { OrganizationInput, Organization as WireOrganization } from '@pathlight/protocol'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { Role } from '../storage/metadata/schema.js'

/** The organization record as the API returns it (the protocol's); `role` is the caller's, in listings made for a user. */
export type Organization = WireOrganization

/** Create an organization with `userId` as its owner; `input` as its contract parsed it. */
export async function createOrganization(
  db: MetadataDb,
  userId: string,
  input: OrganizationInput,
  clock: Clock = systemClock,
): Promise<Organization> {
  const now = isoNow(clock)
  const id = crypto.randomUUID()
  const slug = `${slugify(input.name)}-${id.slice(0, 8)}`
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('organization')
      .values({ id, name: input.name, slug, created_by: userId, created_at: now })
      .execute()
    await trx
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: id,
        user_id: userId,
        role: 'owner',
        created_at: now,
      })
      .execute()
  })
  return { id, name: input.name, slug, createdAt: now, createdBy: userId, role: 'owner' }
}

/** The caller's role in an organization, or null when not a member (or no such organization). */
export async function roleIn(db: MetadataDb, userId: string, organizationId: string): Promise<Role | null> {
  const row = await db
    .selectFrom('member')
    .select('role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.role ?? null
}

/** The organizations a user belongs to, with their role, oldest first. */
export async function listOrganizations(db: MetadataDb, userId: string): Promise<Organization[]> {
  const rows = await db
    .selectFrom('organization')
    .innerJoin('member', 'member.organization_id', 'organization.id')
    .select([
      'organization.id',
      'organization.name',
      'organization.slug',
      'organization.created_at',
      'organization.created_by',
      'member.role',
    ])
    .where('member.user_id', '=', userId)
    .orderBy('organization.created_at')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    createdAt: r.created_at,
    createdBy: r.created_by,
    role: r.role,
  }))
}

/** True when `role` is admin or owner: the roles the spec requires for administrative operations. */
export const isAdminRole = (role: Role | null): boolean => role === 'owner' || role === 'admin'

function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'org'
  )
}
