/**
 * The audit trail of administrative actions: who did what, when, in which organization (and site).
 * Written in the same transaction as the change where the caller passes one.
 */
import crypto from 'node:crypto'
import { auditActions, type AuditEntry as WireAuditEntry } from '@pathlight/protocol'
import type { Kysely, Transaction } from 'kysely'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'

export { auditActions }
export type AuditAction = (typeof auditActions)[number]

/** One audit entry as the API returns it (the protocol's). */
export type AuditEntry = WireAuditEntry

export interface AuditInput {
  organizationId: string
  siteId?: number | null
  actorUserId: string
  action: AuditAction
  details?: Record<string, unknown>
}

/** Record an action. @param db the store or an open transaction */
export async function recordAudit(
  db: Kysely<MetadataSchema> | Transaction<MetadataSchema>,
  input: AuditInput,
  clock: Clock = systemClock,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: crypto.randomUUID(),
      organization_id: input.organizationId,
      site_id: input.siteId ?? null,
      actor_user_id: input.actorUserId,
      action: input.action,
      details: JSON.stringify(input.details ?? {}),
      created_at: isoNow(clock),
    })
    .execute()
}

/**
 * Record an action about a site, in the organization the site belongs to (looked up in `db`, so that
 * commands keyed by site id alone are scoped like those given the site row).
 * @throws Error when no site has this id
 */
export async function recordSiteAudit(
  db: Kysely<MetadataSchema> | Transaction<MetadataSchema>,
  input: Omit<AuditInput, 'organizationId' | 'siteId'> & { siteId: number },
  clock: Clock = systemClock,
): Promise<void> {
  const site = await db
    .selectFrom('site')
    .select('organization_id')
    .where('site_id', '=', input.siteId)
    .executeTakeFirstOrThrow()
  await recordAudit(db, { ...input, organizationId: site.organization_id }, clock)
}

/**
 * An organization's audit entries, newest first.
 * @param options.siteId only entries about this site; `limit` 1-500 (default 100), `before` an ISO time
 */
export async function listAudit(
  db: MetadataDb,
  organizationId: string,
  options: { siteId?: number; limit?: number; before?: string } = {},
): Promise<AuditEntry[]> {
  let query = db
    .selectFrom('audit_log')
    .leftJoin('user', 'user.id', 'audit_log.actor_user_id')
    .select([
      'audit_log.id',
      'audit_log.organization_id',
      'audit_log.site_id',
      'audit_log.actor_user_id',
      'audit_log.action',
      'audit_log.details',
      'audit_log.created_at',
      'user.email',
    ])
    .where('audit_log.organization_id', '=', organizationId)
  if (options.siteId !== undefined) query = query.where('audit_log.site_id', '=', options.siteId)
  if (options.before) query = query.where('audit_log.created_at', '<', options.before)
  const rows = await query
    .orderBy('audit_log.seq', 'desc')
    .limit(options.limit ?? 100)
    .execute()
  return rows.map((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    siteId: r.site_id === null ? null : Number(r.site_id),
    actorUserId: r.actor_user_id,
    actorEmail: r.email ?? null,
    action: r.action as AuditAction,
    details: JSON.parse(r.details) as Record<string, unknown>,
    createdAt: r.created_at,
  }))
}
