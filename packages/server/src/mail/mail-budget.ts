/**
 * The budget of mails that ask an address to agree to something: invitations and the confirmation
 * mails of e-mail report and alert recipients. One organization's admins cannot flood an inbox, nor
 * send without end: at most `perRecipient` such mails to one address (whatever the organization) and
 * `perOrganization` for one organization in a sliding window of `windowMs` (defaults 5, 200 and 24
 * hours; `MAIL_BUDGET_PER_RECIPIENT`, `MAIL_BUDGET_PER_ORGANIZATION`). The count is of the outbox's own
 * rows (`mail_message`: kind, recipient, organization, created_at), sent or not, so it holds across
 * restarts and nodes. Beyond it the request that would send is refused (429 naming the address and
 * `Retry-After`), or, when a mail is a side effect of another change (a removed member's report
 * confirmations), the mail is left out.
 */
import { AppError } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'

/** The limits; `windowMs` in milliseconds. */
export interface MailBudget {
  perRecipient: number
  perOrganization: number
  windowMs: number
}

export const DEFAULT_MAIL_BUDGET: MailBudget = { perRecipient: 5, perOrganization: 200, windowMs: 86_400_000 }

/** The mail kinds the budget counts: mails to an address that has not agreed to anything yet. */
export const CONSENT_MAIL_KINDS = ['invitation', 'email-report-confirmation', 'alert-confirmation'] as const

/** What a planned send finds: ok, or why not and when the oldest counted mail leaves the window. */
export type MailBudgetCheck =
  | { ok: true }
  | { ok: false; reason: 'recipient' | 'organization'; retryAfterSeconds: number }

/**
 * Whether one more consent mail to `recipient` for `organizationId` fits the budget.
 * @param now epoch ms (the clock the mails are queued with)
 */
export async function checkMailBudget(
  db: MetadataDb,
  input: { recipient: string; organizationId: string },
  budget: MailBudget,
  now: number,
): Promise<MailBudgetCheck> {
  const since = new Date(now - budget.windowMs).toISOString()
  const recent = (column: 'recipient' | 'organization_id', value: string) =>
    db
      .selectFrom('mail_message')
      .select('created_at')
      .where(column, '=', value)
      .where('kind', 'in', [...CONSENT_MAIL_KINDS])
      .where('created_at', '>', since)
      .orderBy('created_at')
      .execute()
  const [toRecipient, forOrganization] = await Promise.all([
    recent('recipient', input.recipient.toLowerCase()),
    recent('organization_id', input.organizationId),
  ])
  const over = (rows: { created_at: string }[], max: number) => {
    if (rows.length < max) return undefined
    const leaves = Date.parse(rows[rows.length - max]?.created_at ?? '') + budget.windowMs
    return Math.max(1, Math.ceil((leaves - now) / 1000))
  }
  const byRecipient = over(toRecipient, budget.perRecipient)
  if (byRecipient !== undefined) return { ok: false, reason: 'recipient', retryAfterSeconds: byRecipient }
  const byOrganization = over(forOrganization, budget.perOrganization)
  if (byOrganization !== undefined)
    return { ok: false, reason: 'organization', retryAfterSeconds: byOrganization }
  return { ok: true }
}

/**
 * Refuse a send over the budget.
 * @throws AppError 429 naming the address (or the organization) with `Retry-After`
 */
export async function requireMailBudget(
  db: MetadataDb,
  input: { recipient: string; organizationId: string },
  budget: MailBudget,
  now: number,
): Promise<void> {
  const check = await checkMailBudget(db, input, budget, now)
  if (check.ok) return
  const hours = Math.round(budget.windowMs / 3_600_000)
  const message =
    check.reason === 'recipient'
      ? `Too many invitation and confirmation mails to ${input.recipient}: at most ${budget.perRecipient} in ${hours} hours`
      : `Too many invitation and confirmation mails from this organization: at most ${budget.perOrganization} in ${hours} hours`
  throw new AppError(429, message, undefined, { 'retry-after': String(check.retryAfterSeconds) })
}
