/**
 * Invitations to an organization. An admin or owner invites an address with a role (only an owner
 * invites owners); the invitation is stored with the SHA-256 of a random token, and the mail with the
 * link (`BASE_URL/invitations/<token>`) is enqueued in the same transaction, so an invitation exists
 * exactly when its mail is on its way. Inviting an address again replaces its pending invitation.
 * Links work 7 days. An account signed in with the invited address accepts (and becomes a member);
 * anyone holding the link may decline; admins revoke. An invitation is worth no more than its
 * inviter's rights: when the inviter is removed or leaves, or is demoted, the pending invitations they
 * made of a role they may no longer grant are revoked (`revokeInvitationsBeyond`). Each step is audited
 * (`invitation.*`) and a new membership is announced on the change feed. Without SMTP settings nothing
 * is stored: 503.
 */
import crypto from 'node:crypto'
import type { invitation, invitationOffer } from '@pathlight/protocol'
import type { z } from 'zod'
import { recordAudit } from '../audit/audit-log.js'
import { requireMailBudget } from '../mail/mail-budget.js'
import { enqueueMail } from '../mail/mail-outbox.js'
import { type MailSettings, mailBudgetOf, requireMail } from '../mail/mail-settings.js'
import { invitationMail } from '../mail/templates/invitation.js'
import type { ChangeFeed } from '../shared/change-feed.js'
import { AppError, conflict, forbidden, notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { InvitationTable } from '../storage/metadata/mail-schema.js'
import { fromBool, type Role } from '../storage/metadata/schema.js'

/** How long an invitation's link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000

/** A pending invitation as its organization's admins see it (the protocol's `invitation`). */
export type Invitation = z.output<typeof invitation>

/** What a link offers, as its holder sees it (the protocol's `invitationOffer`). */
export type InvitationOffer = z.output<typeof invitationOffer>

export interface InvitationDeps {
  db: MetadataDb
  changes: ChangeFeed
  /** Undefined without SMTP_URL: inviting answers 503. */
  mail: MailSettings | undefined
  /** The public URL of the dashboard, for the link. */
  baseUrl: string
  clock?: Clock
}

/** The SHA-256 of a token, lowercase hex: what the store keeps. */
const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

const invitationGone = (status: InvitationTable['status'] | 'expired') =>
  new AppError(
    410,
    status === 'expired' ? 'This invitation has expired' : `This invitation was already ${status}`,
  )

const toInvitation = (row: InvitationTable): Invitation => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
})

/**
 * Invite `input.email` with `input.role`; mails the link.
 * @param actor the caller and their role in the organization (admin or owner, checked by the route)
 * @throws 503 without SMTP settings; 403 an admin inviting an owner; 409 the address is a member already;
 *   429 over the mail budget of the address or the organization (`mail/mail-budget.ts`)
 */
export async function createInvitation(
  deps: InvitationDeps,
  organizationId: string,
  actor: { userId: string; role: Role },
  input: { email: string; role: Role },
): Promise<Invitation> {
  const settings = requireMail(deps.mail)
  const clock = deps.clock ?? systemClock
  if (input.role === 'owner' && actor.role !== 'owner') throw forbidden('Only an owner can invite an owner')
  const { db } = deps
  const member = await db
    .selectFrom('member')
    .innerJoin('user', 'user.id', 'member.user_id')
    .select('member.id')
    .where('member.organization_id', '=', organizationId)
    .where('user.email', '=', input.email)
    .executeTakeFirst()
  if (member) throw conflict('Already a member of this organization')
  const [organization, inviter] = await Promise.all([
    db.selectFrom('organization').select('name').where('id', '=', organizationId).executeTakeFirstOrThrow(),
    db.selectFrom('user').select(['name', 'email']).where('id', '=', actor.userId).executeTakeFirstOrThrow(),
  ])
  const now = clock()
  await requireMailBudget(db, { recipient: input.email, organizationId }, mailBudgetOf(settings), now)
  const token = crypto.randomBytes(32).toString('base64url')
  const row: InvitationTable = {
    id: crypto.randomUUID(),
    organization_id: organizationId,
    email: input.email,
    role: input.role,
    token_hash: hashToken(token),
    invited_by: actor.userId,
    status: 'pending',
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + INVITATION_TTL_MS).toISOString(),
    ended_at: null,
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('invitation')
      .set({ status: 'revoked', ended_at: row.created_at })
      .where('organization_id', '=', organizationId)
      .where('email', '=', input.email)
      .where('status', '=', 'pending')
      .execute()
    await trx.insertInto('invitation').values(row).execute()
    await recordAudit(
      trx,
      {
        organizationId,
        actorUserId: actor.userId,
        action: 'invitation.created',
        details: { invitationId: row.id, email: row.email, role: row.role },
      },
      clock,
    )
    await enqueueMail(
      trx,
      {
        ...invitationMail({
          to: row.email,
          organization: organization.name,
          role: row.role,
          invitedBy: inviter.name || inviter.email,
          url: `${deps.baseUrl}/invitations/${token}`,
          expiresAt: row.expires_at,
        }),
        organizationId,
      },
      new Date(now),
    )
  })
  return toInvitation(row)
}

/** The organization's pending invitations that have not expired, newest first. */
export async function listInvitations(
  db: MetadataDb,
  organizationId: string,
  clock: Clock = systemClock,
): Promise<Invitation[]> {
  const rows = await db
    .selectFrom('invitation')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'pending')
    .where('expires_at', '>', isoNow(clock))
    .orderBy('created_at', 'desc')
    .execute()
  return rows.map(toInvitation)
}

/**
 * The roles a member with `role` may invite (and add): an owner any, an admin admins and members, a
 * plain member or a former member (`null`) none.
 */
export function grantableRoles(role: Role | null): readonly Role[] {
  if (role === 'owner') return ['owner', 'admin', 'member']
  if (role === 'admin') return ['admin', 'member']
  return []
}

/**
 * Revoke the pending invitations that `inviterUserId` made in the organization for a role their role
 * now (`role`, `null` once they are no longer a member) cannot grant, in the caller's transaction (the
 * one removing or re-roling the inviter). Each is audited as `invitation.revoked` by `actorUserId`
 * with `reason` (`inviter_removed` or `inviter_role_changed`).
 * @returns the ids of the invitations revoked
 */
export async function revokeInvitationsBeyond(
  trx: MetadataDb,
  input: {
    organizationId: string
    inviterUserId: string
    role: Role | null
    actorUserId: string
    reason: 'inviter_removed' | 'inviter_role_changed'
  },
  clock: Clock = systemClock,
): Promise<string[]> {
  const grantable = grantableRoles(input.role)
  let query = trx
    .selectFrom('invitation')
    .selectAll()
    .where('organization_id', '=', input.organizationId)
    .where('invited_by', '=', input.inviterUserId)
    .where('status', '=', 'pending')
  if (grantable.length > 0) query = query.where('role', 'not in', [...grantable])
  const rows = await query.execute()
  for (const row of rows) {
    await trx
      .updateTable('invitation')
      .set({ status: 'revoked', ended_at: isoNow(clock) })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .execute()
    await recordAudit(
      trx,
      {
        organizationId: input.organizationId,
        actorUserId: input.actorUserId,
        action: 'invitation.revoked',
        details: {
          invitationId: row.id,
          email: row.email,
          role: row.role,
          invitedBy: row.invited_by,
          reason: input.reason,
        },
      },
      clock,
    )
  }
  return rows.map((row) => row.id)
}

/**
 * Revoke a pending invitation: its link stops working.
 * @throws 404 no pending invitation with this id in the organization
 */
export async function revokeInvitation(
  db: MetadataDb,
  organizationId: string,
  actor: { userId: string },
  invitationId: string,
  clock: Clock = systemClock,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('invitation')
      .selectAll()
      .where('id', '=', invitationId)
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (!row) throw notFound('Invitation not found')
    await trx
      .updateTable('invitation')
      .set({ status: 'revoked', ended_at: isoNow(clock) })
      .where('id', '=', row.id)
      .execute()
    await recordAudit(
      trx,
      {
        organizationId,
        actorUserId: actor.userId,
        action: 'invitation.revoked',
        details: { invitationId: row.id, email: row.email, role: row.role },
      },
      clock,
    )
  })
}

/**
 * The pending, unexpired invitation of a token.
 * @throws 404 unknown token; 410 expired or no longer pending
 */
async function pendingInvitation(db: MetadataDb, token: string, clock: Clock): Promise<InvitationTable> {
  const row = await db
    .selectFrom('invitation')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst()
  if (!row) throw notFound('Invitation not found')
  if (row.status !== 'pending') throw invitationGone(row.status)
  if (row.expires_at <= isoNow(clock)) throw invitationGone('expired')
  return row
}

/**
 * What a link offers.
 * @throws 404 unknown token; 410 expired, accepted, declined or revoked
 */
export async function findInvitation(
  db: MetadataDb,
  token: string,
  clock: Clock = systemClock,
): Promise<InvitationOffer> {
  const row = await pendingInvitation(db, token, clock)
  const [organization, inviter] = await Promise.all([
    db
      .selectFrom('organization')
      .select(['id', 'name'])
      .where('id', '=', row.organization_id)
      .executeTakeFirstOrThrow(),
    db.selectFrom('user').select(['name', 'email']).where('id', '=', row.invited_by).executeTakeFirst(),
  ])
  return {
    organization,
    email: row.email,
    role: row.role,
    invitedBy: inviter ? inviter.name || inviter.email : 'A former member',
    expiresAt: row.expires_at,
  }
}

/**
 * Accept: the caller becomes a member with the invited role (kept as it is when already a member), and
 * the caller's address counts as verified (the link was mailed to it).
 * @throws 404 unknown token; 410 expired or no longer pending; 403 the caller's address is not the invited one
 */
export async function acceptInvitation(
  deps: Pick<InvitationDeps, 'db' | 'changes' | 'clock'>,
  token: string,
  caller: { userId: string },
): Promise<{ organizationId: string; role: Role }> {
  const clock = deps.clock ?? systemClock
  const { db } = deps
  const row = await pendingInvitation(db, token, clock)
  const user = await db
    .selectFrom('user')
    .select('email')
    .where('id', '=', caller.userId)
    .executeTakeFirstOrThrow()
  if (user.email.toLowerCase() !== row.email) {
    throw forbidden(`This invitation is for ${row.email}; sign in with that address to accept it`)
  }
  const role = await db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('invitation')
      .set({ status: 'accepted', ended_at: isoNow(clock) })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(ended.numUpdatedRows) === 0) throw invitationGone('accepted')
    const existing = await trx
      .selectFrom('member')
      .select('role')
      .where('organization_id', '=', row.organization_id)
      .where('user_id', '=', caller.userId)
      .executeTakeFirst()
    // The token came by mail to this address: accepting proves the account holds it.
    await trx
      .updateTable('user')
      .set({ emailVerified: fromBool(true) })
      .where('id', '=', caller.userId)
      .execute()
    if (!existing) {
      await trx
        .insertInto('member')
        .values({
          id: crypto.randomUUID(),
          organization_id: row.organization_id,
          user_id: caller.userId,
          role: row.role,
          created_at: isoNow(clock),
        })
        .execute()
    }
    await recordAudit(
      trx,
      {
        organizationId: row.organization_id,
        actorUserId: caller.userId,
        action: 'invitation.accepted',
        details: {
          invitationId: row.id,
          email: row.email,
          role: existing?.role ?? row.role,
          invitedBy: row.invited_by,
        },
      },
      clock,
    )
    return existing?.role ?? row.role
  })
  await deps.changes.announce({ kind: 'member', organizationId: row.organization_id, userId: caller.userId })
  return { organizationId: row.organization_id, role }
}

/**
 * Decline: the link stops working. The audit entry names the caller, or the inviter when the link's
 * holder is not signed in.
 * @throws 404 unknown token; 410 expired or no longer pending
 */
export async function declineInvitation(
  db: MetadataDb,
  token: string,
  caller: { userId: string } | null,
  clock: Clock = systemClock,
): Promise<void> {
  const row = await pendingInvitation(db, token, clock)
  await db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('invitation')
      .set({ status: 'declined', ended_at: isoNow(clock) })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(ended.numUpdatedRows) === 0) throw invitationGone('declined')
    await recordAudit(
      trx,
      {
        organizationId: row.organization_id,
        actorUserId: caller?.userId ?? row.invited_by,
        action: 'invitation.declined',
        details: { invitationId: row.id, email: row.email, role: row.role, signedIn: caller !== null },
      },
      clock,
    )
  })
}

/** Whether a pending, unexpired invitation names this address (sign-up stays open to it). */
export async function isInvited(db: MetadataDb, email: string, clock: Clock = systemClock): Promise<boolean> {
  const row = await db
    .selectFrom('invitation')
    .select('id')
    .where('email', '=', email.trim().toLowerCase())
    .where('status', '=', 'pending')
    .where('expires_at', '>', isoNow(clock))
    .executeTakeFirst()
  return row !== undefined
}
