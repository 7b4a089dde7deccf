/**
 * The e-mail recipients of alert rules, treated as the recipients of e-mail reports are
 * (`email-reports/email-reports.ts`): an address of a member of the site's organization is `active` at
 * once; any other address is `pending` and is mailed a link to confirm, and gets no alert mail until it
 * does; an unsubscribed address stays unsubscribed while the rule's list keeps it. Saving a rule again
 * keeps the state of the addresses it keeps (changing the threshold mails nobody new), removes the
 * dropped ones and treats new ones as above. Without mail configured, pending addresses are stored
 * without a confirmation mail; the first save with mail configured queues it. Confirmation mails count
 * in the mail budget (`mail/mail-budget.ts`). Each alert mail carries its recipient's unsubscribe page
 * link and `List-Unsubscribe` with the one-click `List-Unsubscribe-Post` (RFC 8058).
 */
import crypto from 'node:crypto'
import type { AlertSubscription } from '@pathlight/protocol'
import type { Kysely } from 'kysely'
import { checkMailBudget, type MailBudget, requireMailBudget } from '../mail/mail-budget.js'
import { enqueueMail } from '../mail/mail-outbox.js'
import { memberAddressesAmong } from '../mail/member-addresses.js'
import { renderAlertConfirmation } from '../mail/templates/alert-confirmation.js'
import { notFound } from '../shared/errors.js'
import { type Clock, isoNow, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { MetadataSchema } from '../storage/metadata/schema.js'
import type { AlertRecipientStatus, AlertRecipientTable } from '../storage/metadata/webhook-schema.js'

/** An address of a rule with its state (the wire's `AlertRule.recipients`). */
export interface AlertRecipientState {
  email: string
  status: AlertRecipientStatus
}

/** With mail configured: the public URL of the links and the budget of confirmation mails. */
export interface AlertMailOptions {
  baseUrl: string
  budget: MailBudget
  /** Members count as confirmed only once their address is verified. */
  verifiedOnly: boolean
}

/** The links of a recipient's alert mails. */
export function alertRecipientLinks(baseUrl: string, token: string) {
  const encoded = encodeURIComponent(token)
  return {
    confirmPage: `${baseUrl}/alerts/confirm/${encoded}`,
    unsubscribePage: `${baseUrl}/alerts/unsubscribe/${encoded}`,
    /** The one-click target of `List-Unsubscribe` (a POST without sign-in). */
    unsubscribeEndpoint: `${baseUrl}/api/alerts/subscriptions/${encoded}/unsubscribe`,
  }
}

/**
 * Make the rule's recipient rows match `emails`, in the caller's transaction (the one saving the rule).
 * @param mail undefined without mail settings: no confirmation mail is queued
 * @throws AppError 429 when a confirmation mail is over the mail budget
 */
export async function syncAlertRecipients(
  trx: Kysely<MetadataSchema>,
  input: {
    ruleId: string
    ruleName: string
    site: { domain: string; organization_id: string }
    emails: readonly string[]
    mail: AlertMailOptions | undefined
    clock?: Clock
  },
): Promise<void> {
  const clock = input.clock ?? systemClock
  const existing = await trx
    .selectFrom('alert_recipient')
    .selectAll()
    .where('rule_id', '=', input.ruleId)
    .execute()
  const wanted = new Set(input.emails)
  const removed = existing.filter((r) => !wanted.has(r.email)).map((r) => r.id)
  if (removed.length > 0) await trx.deleteFrom('alert_recipient').where('id', 'in', removed).execute()
  const known = new Set(existing.map((r) => r.email))
  const added = input.emails.filter((e) => !known.has(e))
  const members = await memberAddressesAmong(trx, input.site.organization_id, added, {
    verifiedOnly: input.mail?.verifiedOnly ?? false,
  })
  const now = isoNow(clock)
  const rows: AlertRecipientTable[] = added.map((email) => ({
    id: crypto.randomUUID(),
    rule_id: input.ruleId,
    email,
    status: members.has(email) ? 'active' : 'pending',
    token: crypto.randomBytes(24).toString('base64url'),
    created_at: now,
    confirmation_sent_at: null,
    confirmed_at: members.has(email) ? now : null,
    unsubscribed_at: null,
  }))
  if (rows.length > 0) await trx.insertInto('alert_recipient').values(rows).execute()
  if (!input.mail) return
  const unconfirmed = [...existing.filter((r) => wanted.has(r.email)), ...rows].filter(
    (r) => r.status === 'pending' && r.confirmation_sent_at === null,
  )
  for (const recipient of unconfirmed) {
    await requireMailBudget(
      trx,
      { recipient: recipient.email, organizationId: input.site.organization_id },
      input.mail.budget,
      clock(),
    )
    const mail = renderAlertConfirmation({
      ruleName: input.ruleName,
      siteDomain: input.site.domain,
      confirmUrl: alertRecipientLinks(input.mail.baseUrl, recipient.token).confirmPage,
    })
    await enqueueMail(
      trx,
      {
        kind: 'alert-confirmation',
        to: recipient.email,
        ...mail,
        organizationId: input.site.organization_id,
      },
      new Date(clock()),
    )
    await trx
      .updateTable('alert_recipient')
      .set({ confirmation_sent_at: now })
      .where('id', '=', recipient.id)
      .execute()
  }
}

/**
 * A member who leaves or is removed no longer gets the alert mails of the organization's sites as a
 * member: their `active` rows on its rules go back to `pending`, in the caller's transaction `trx` (the
 * one removing the member); with `mail`, each is mailed the confirmation link (left out beyond the mail
 * budget, and then queued when the rule is next saved).
 * @returns how many rows went back to pending
 */
export async function suspendFormerMemberAlertRecipients(
  trx: Kysely<MetadataSchema>,
  input: {
    organizationId: string
    email: string
    mail?: Omit<AlertMailOptions, 'verifiedOnly'>
    clock?: Clock
  },
): Promise<number> {
  const clock = input.clock ?? systemClock
  const rows = await trx
    .selectFrom('alert_recipient')
    .innerJoin('alert_rule', 'alert_rule.id', 'alert_recipient.rule_id')
    .innerJoin('site', 'site.site_id', 'alert_rule.site_id')
    .select(['alert_recipient.id', 'alert_recipient.token', 'alert_rule.name', 'site.domain'])
    .where('site.organization_id', '=', input.organizationId)
    .where('alert_recipient.email', '=', input.email.toLowerCase())
    .where('alert_recipient.status', '=', 'active')
    .execute()
  for (const row of rows) {
    let sent: string | null = null
    if (input.mail) {
      const fits = await checkMailBudget(
        trx,
        { recipient: input.email, organizationId: input.organizationId },
        input.mail.budget,
        clock(),
      )
      if (fits.ok) {
        const mail = renderAlertConfirmation({
          ruleName: row.name,
          siteDomain: row.domain,
          confirmUrl: alertRecipientLinks(input.mail.baseUrl, row.token).confirmPage,
        })
        await enqueueMail(
          trx,
          { kind: 'alert-confirmation', to: input.email, ...mail, organizationId: input.organizationId },
          new Date(clock()),
        )
        sent = isoNow(clock)
      }
    }
    await trx
      .updateTable('alert_recipient')
      .set({ status: 'pending', confirmed_at: null, confirmation_sent_at: sent })
      .where('id', '=', row.id)
      .execute()
  }
  return rows.length
}

/** The recipients of each rule, by rule id, in the order of its list. */
export async function recipientsOfRules(
  db: Kysely<MetadataSchema>,
  rules: readonly { id: string; emailRecipients: readonly string[] }[],
): Promise<Map<string, AlertRecipientState[]>> {
  const byRule = new Map<string, AlertRecipientState[]>()
  if (rules.length === 0) return byRule
  const rows = await db
    .selectFrom('alert_recipient')
    .select(['rule_id', 'email', 'status'])
    .where(
      'rule_id',
      'in',
      rules.map((r) => r.id),
    )
    .execute()
  for (const rule of rules) {
    const states = new Map(rows.filter((r) => r.rule_id === rule.id).map((r) => [r.email, r.status]))
    byRule.set(
      rule.id,
      rule.emailRecipients.map((email) => ({ email, status: states.get(email) ?? 'pending' })),
    )
  }
  return byRule
}

/** The addresses a rule's mails go to now (active), with their link tokens. */
export async function activeAlertRecipients(
  db: MetadataDb,
  ruleId: string,
): Promise<{ email: string; token: string }[]> {
  return db
    .selectFrom('alert_recipient')
    .select(['email', 'token'])
    .where('rule_id', '=', ruleId)
    .where('status', '=', 'active')
    .orderBy('email')
    .execute()
}

const subscriptionNotFound = () => notFound('Unknown or expired link')

/** The subscriptions behind alert mails' links: look up, confirm, unsubscribe (by token, no sign-in). */
export function createAlertSubscriptions(db: MetadataDb, clock: Clock = systemClock) {
  const find = async (token: string) => {
    const row = await db
      .selectFrom('alert_recipient')
      .innerJoin('alert_rule', 'alert_rule.id', 'alert_recipient.rule_id')
      .innerJoin('site', 'site.site_id', 'alert_rule.site_id')
      .select([
        'alert_recipient.id',
        'alert_recipient.email',
        'alert_recipient.status',
        'alert_rule.name',
        'site.domain',
      ])
      .where('alert_recipient.token', '=', token)
      .executeTakeFirst()
    if (!row) throw subscriptionNotFound()
    return row
  }
  const toSubscription = (
    row: Awaited<ReturnType<typeof find>>,
    status: AlertRecipientStatus = row.status,
  ): AlertSubscription => ({ email: row.email, siteDomain: row.domain, ruleName: row.name, status })
  return {
    /** What a link's token names. @throws AppError 404 for an unknown token */
    async subscription(token: string): Promise<AlertSubscription> {
      return toSubscription(await find(token))
    },
    /** A pending address becomes active (an unsubscribed one stays so). @throws AppError 404 */
    async confirm(token: string): Promise<AlertSubscription> {
      const row = await find(token)
      if (row.status !== 'pending') return toSubscription(row)
      await db
        .updateTable('alert_recipient')
        .set({ status: 'active', confirmed_at: isoNow(clock) })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute()
      return toSubscription(row, 'active')
    },
    /** The address gets no more mails of this rule. @throws AppError 404 for an unknown token */
    async unsubscribe(token: string): Promise<AlertSubscription> {
      const row = await find(token)
      if (row.status !== 'unsubscribed') {
        await db
          .updateTable('alert_recipient')
          .set({ status: 'unsubscribed', unsubscribed_at: isoNow(clock) })
          .where('id', '=', row.id)
          .execute()
      }
      return toSubscription(row, 'unsubscribed')
    },
  }
}

export type AlertSubscriptions = ReturnType<typeof createAlertSubscriptions>
