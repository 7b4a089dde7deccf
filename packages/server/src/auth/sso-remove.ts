/**
 * The operator's way to apply a removal at the provider at once, without waiting for the user's next
 * sign-in: the account leaves the SSO organization (audited `member.removed`, `{source: 'operator'}`)
 * and every session of the account ends. Its password, if it has one, and its API keys are untouched
 * (remove the account's keys in the dashboard, or the account, for a full stop).
 */
import type { ChangeFeed } from '../shared/change-feed.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import { applySsoMembership, type MembershipChange, SSO_ORGANIZATION_SETTING } from './sso-roles.js'

/** What `removeSsoAccess` did. */
export interface SsoRemoval {
  userId: string
  membership: MembershipChange | null
  sessionsEnded: number
}

/**
 * Remove the account with this address (any case) from the SSO organization and end its sessions.
 * @throws Error when no account has the address
 */
export async function removeSsoAccess(
  deps: { db: MetadataDb; changes?: ChangeFeed },
  email: string,
): Promise<SsoRemoval> {
  const address = email.trim().toLowerCase()
  const user = await deps.db.selectFrom('user').select('id').where('email', '=', address).executeTakeFirst()
  if (!user) throw new Error(`No account with the address ${address}`)
  const organizationId = await getSetting(deps.db, SSO_ORGANIZATION_SETTING)
  const membership = organizationId
    ? await applySsoMembership(deps, organizationId, user.id, null, 'operator')
    : null
  const ended = await deps.db
    .deleteFrom('session' as never)
    .where('userId' as never, '=', user.id as never)
    .executeTakeFirst()
  return { userId: user.id, membership, sessionsEnded: Number(ended.numDeletedRows) }
}
