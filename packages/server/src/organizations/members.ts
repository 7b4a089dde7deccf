/**
 * Organization members and their roles, with the rules users expect:
 * - any member may list members; admins and owners add, re-role and remove them;
 * - only an owner may make someone an owner, or change or remove an owner;
 * - the last owner can be neither demoted nor removed; anyone may leave (remove themselves) otherwise.
 * Each change is audited (`member.added`, `member.role_changed`, `member.removed`) in its transaction
 * and announced as a membership change (the ingest path caches roles). With mail configured, an added
 * account whose address is verified is mailed a notice (`member-added`), enqueued in the transaction
 * that adds it (an unverified address gets nothing: it may not be its holder's). A removed
 * member's e-mail reports and alert mails wait for them to confirm, as an outsider's
 * (`former-member-recipients.ts`, `alerts/alert-recipients.ts`).
 * Removing or demoting a member revokes the pending invitations they made beyond what they may still
 * grant (`revokeInvitationsBeyond`), in the same transaction.
 */
import crypto from 'node:crypto'
import type { AddMemberInput, ChangeRoleInput, Member } from '@pathlight/protocol'
import { suspendFormerMemberAlertRecipients } from '../alerts/alert-recipients.js'
import { recordAudit } from '../audit/audit-log.js'
import { suspendFormerMemberRecipients } from '../email-reports/former-member-recipients.js'
import { DEFAULT_MAIL_BUDGET, type MailBudget } from '../mail/mail-budget.js'
import { enqueueMail } from '../mail/mail-outbox.js'
import { memberAddedMail } from '../mail/templates/member-added.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { conflict, forbidden, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { type Role, toBool } from '../storage/metadata/schema.js'
import { revokeInvitationsBeyond } from './invitations.js'

/** What the member commands need: the store and where to announce membership changes. */
export interface MemberCommandDeps {
  db: MetadataDb
  changes: ChangeFeed
  /**
   * With mail configured: the dashboard's URL, linked from the notice an added account is mailed, and
   * the mail budget of confirmation mails (`mail/mail-budget.ts`).
   */
  notify?: { baseUrl: string; budget?: MailBudget }
}

export async function listMembers(db: MetadataDb, organizationId: string): Promise<Member[]> {
  const rows = await db
    .selectFrom('member')
    .innerJoin('user', 'user.id', 'member.user_id')
    .select(['member.user_id', 'user.name', 'user.email', 'member.role', 'member.created_at'])
    .where('member.organization_id', '=', organizationId)
    .orderBy('member.created_at')
    .execute()
  return rows.map((r) => ({
    userId: r.user_id,
    name: r.name,
    email: r.email,
    role: r.role,
    joinedAt: r.created_at,
  }))
}

/**
 * Add an existing account to the organization.
 * @throws 400 invalid body; 403 when an admin tries to add an owner; 404 no account with that email;
 *   409 already a member
 */
export async function addMember(
  { db, changes, notify }: MemberCommandDeps,
  organizationId: string,
  actor: { userId: string; role: Role },
  input: AddMemberInput,
  clock: Clock = systemClock,
): Promise<Member> {
  const { email, role } = input
  if (role === 'owner' && actor.role !== 'owner') throw forbidden('Only an owner can add an owner')
  const user = await db
    .selectFrom('user')
    .select(['id', 'name', 'email', 'emailVerified'])
    .where('email', '=', email)
    .executeTakeFirst()
  if (!user) throw notFound('No account with that email; invite them by e-mail instead')
  const existing = await db
    .selectFrom('member')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', user.id)
    .executeTakeFirst()
  if (existing) throw conflict('Already a member of this organization')
  const joinedAt = isoNow(clock)
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('member')
      .values({
        id: crypto.randomUUID(),
        organization_id: organizationId,
        user_id: user.id,
        role,
        created_at: joinedAt,
      })
      .execute()
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'member.added',
      details: { userId: user.id, email: user.email, role },
    })
    if (notify && toBool(user.emailVerified)) {
      const [organization, adder] = await Promise.all([
        trx
          .selectFrom('organization')
          .select('name')
          .where('id', '=', organizationId)
          .executeTakeFirstOrThrow(),
        trx
          .selectFrom('user')
          .select(['name', 'email'])
          .where('id', '=', actor.userId)
          .executeTakeFirstOrThrow(),
      ])
      await enqueueMail(
        trx,
        memberAddedMail({
          to: user.email,
          name: user.name,
          organization: organization.name,
          role,
          addedBy: adder.name || adder.email,
          url: notify.baseUrl,
        }),
        new Date(clock()),
      )
    }
  })
  await changes.announce({ kind: 'member', organizationId, userId: user.id })
  return { userId: user.id, name: user.name, email: user.email, role, joinedAt }
}

/**
 * Change a member's role.
 * @throws 400 invalid body; 403 when an admin touches owners; 404 not a member; 409 last owner demoted
 */
export async function changeRole(
  { db, changes }: MemberCommandDeps,
  organizationId: string,
  actor: { userId: string; role: Role },
  targetUserId: string,
  input: ChangeRoleInput,
): Promise<Member> {
  const role = input.role
  const member = await db.transaction().execute(async (trx) => {
    const target = await trx
      .selectFrom('member')
      .innerJoin('user', 'user.id', 'member.user_id')
      .select(['member.role', 'user.name', 'user.email', 'member.created_at'])
      .where('member.organization_id', '=', organizationId)
      .where('member.user_id', '=', targetUserId)
      .executeTakeFirst()
    if (!target) throw notFound('Member not found')
    if (actor.role !== 'owner' && (role === 'owner' || target.role === 'owner')) {
      throw forbidden('Only an owner can grant or change the owner role')
    }
    if (target.role === 'owner' && role !== 'owner' && (await countOwners(trx, organizationId)) <= 1) {
      throw conflict('The last owner cannot be demoted; make someone else owner first')
    }
    if (target.role !== role) {
      await trx
        .updateTable('member')
        .set({ role })
        .where('organization_id', '=', organizationId)
        .where('user_id', '=', targetUserId)
        .execute()
      await recordAudit(trx, {
        organizationId,
        actorUserId: actor.userId,
        action: 'member.role_changed',
        details: { userId: targetUserId, email: target.email, from: target.role, to: role },
      })
      await revokeInvitationsBeyond(trx, {
        organizationId,
        inviterUserId: targetUserId,
        role,
        actorUserId: actor.userId,
        reason: 'inviter_role_changed',
      })
    }
    return { userId: targetUserId, name: target.name, email: target.email, role, joinedAt: target.created_at }
  })
  await changes.announce({ kind: 'member', organizationId, userId: targetUserId })
  return member
}

/**
 * Remove a member (or leave, when the target is the actor); their reports' confirmation mails are
 * due at `clock`'s now.
 * @throws 403 when a plain member removes someone else or an admin removes an owner; 404 not a member;
 *   409 the last owner
 */
export async function removeMember(
  { db, changes, notify }: MemberCommandDeps,
  organizationId: string,
  actor: { userId: string; role: Role },
  targetUserId: string,
  clock: Clock = systemClock,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await trx
      .selectFrom('member')
      .innerJoin('user', 'user.id', 'member.user_id')
      .select(['member.role', 'user.email'])
      .where('member.organization_id', '=', organizationId)
      .where('member.user_id', '=', targetUserId)
      .executeTakeFirst()
    if (!target) throw notFound('Member not found')
    const leaving = targetUserId === actor.userId
    if (!leaving && actor.role === 'member')
      throw forbidden('Removing members requires the admin or owner role')
    if (!leaving && target.role === 'owner' && actor.role !== 'owner')
      throw forbidden('Only an owner can remove an owner')
    if (target.role === 'owner' && (await countOwners(trx, organizationId)) <= 1) {
      throw conflict('The last owner cannot be removed; make someone else owner first')
    }
    await trx
      .deleteFrom('member')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', targetUserId)
      .execute()
    await suspendFormerMemberRecipients(trx, {
      organizationId,
      email: target.email,
      ...(notify && { baseUrl: notify.baseUrl }),
      ...(notify?.budget && { budget: notify.budget }),
      clock,
    })
    await suspendFormerMemberAlertRecipients(trx, {
      organizationId,
      email: target.email,
      ...(notify && { mail: { baseUrl: notify.baseUrl, budget: notify.budget ?? DEFAULT_MAIL_BUDGET } }),
      clock,
    })
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'member.removed',
      details: { userId: targetUserId, email: target.email, role: target.role, left: leaving },
    })
    await revokeInvitationsBeyond(trx, {
      organizationId,
      inviterUserId: targetUserId,
      role: null,
      actorUserId: actor.userId,
      reason: 'inviter_removed',
    })
  })
  await changes.announce({ kind: 'member', organizationId, userId: targetUserId })
}

async function countOwners(db: Pick<MetadataDb, 'selectFrom'>, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('member')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
