/**
 * Which addresses of a recipient list belong to members of an organization, the addresses that get
 * an organization's mails (e-mail reports, alerts) without confirming from a link first. With
 * `verifiedOnly` (mail configured: accounts verify their address, `auth/better-auth.ts`), a member
 * counts only once the account's address is verified, so signing up with someone else's address and
 * being added to an organization does not make its mail go to them.
 */
import type { Kysely } from 'kysely'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import { toBool } from '../storage/metadata/schema.js'

/**
 * The addresses among `emails` (lower case) of members of `organizationId`.
 * @param options.verifiedOnly count only members whose address is verified
 */
export async function memberAddressesAmong(
  db: Kysely<MetadataSchema>,
  organizationId: string,
  emails: readonly string[],
  options: { verifiedOnly: boolean },
): Promise<Set<string>> {
  if (emails.length === 0) return new Set()
  const rows = await db
    .selectFrom('member')
    .innerJoin('user', 'user.id', 'member.user_id')
    .select(['user.email', 'user.emailVerified'])
    .where('member.organization_id', '=', organizationId)
    .execute()
  const members = new Set(
    rows.filter((r) => !options.verifiedOnly || toBool(r.emailVerified)).map((r) => r.email.toLowerCase()),
  )
  return new Set(emails.filter((e) => members.has(e.toLowerCase())))
}
