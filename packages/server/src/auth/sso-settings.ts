/**
 * Per-organization SSO settings (table `organization_sso`, migration 017): `ssoOnly`, whose members sign
 * in through SSO only (password sign-in and reset refused, `sso-plugin.ts`; API keys keep working; the
 * instance owner keeps a password as break-glass). Changes are audited (`sso.settings_changed`).
 */
import { recordAudit } from '../audit/audit-log.js'
import { isoNow } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { fromBool, toBool } from '../storage/metadata/schema.js'

/** An organization's SSO settings as the API answers them. */
export interface SsoSettings {
  ssoOnly: boolean
}

/** The organization's settings (defaults when it has no row). */
export async function getSsoSettings(db: MetadataDb, organizationId: string): Promise<SsoSettings> {
  const row = await db
    .selectFrom('organization_sso')
    .select('sso_only')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  return { ssoOnly: row ? toBool(row.sso_only) : false }
}

/** Set the organization's settings, audited as the actor's `sso.settings_changed`. */
export async function setSsoSettings(
  db: MetadataDb,
  organizationId: string,
  actorUserId: string,
  settings: SsoSettings,
): Promise<SsoSettings> {
  await db.transaction().execute(async (trx) => {
    const values = { sso_only: fromBool(settings.ssoOnly), updated_at: isoNow() }
    await trx
      .insertInto('organization_sso')
      .values({ organization_id: organizationId, ...values })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
      .execute()
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'sso.settings_changed',
      details: { ...settings },
    })
  })
  return settings
}

/** The id of an SSO-only organization the user is a member of, if any. */
export async function ssoOnlyOrganizationOf(db: MetadataDb, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('member')
    .innerJoin('organization_sso', 'organization_sso.organization_id', 'member.organization_id')
    .select('member.organization_id')
    .where('member.user_id', '=', userId)
    .where('organization_sso.sso_only', '=', fromBool(true))
    .executeTakeFirst()
  return row?.organization_id
}
