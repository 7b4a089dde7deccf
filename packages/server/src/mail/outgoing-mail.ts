/**
 * One e-mail as the features hand it to the outbox (`mail-outbox.ts`): who it goes to, its subject,
 * and both parts (HTML and plain text) rendered from the kind's template (`templates/`).
 */

/** A message to send: one recipient, both parts, optional extra headers (e.g. `List-Unsubscribe`). */
export interface OutgoingMail {
  /** What sent it, for the operator's list and the metrics: `password-reset`, `invitation`, ... */
  kind: string
  /** One address (`someone@example.com`). */
  to: string
  subject: string
  html: string
  text: string
  /** Headers added to the message as given (names as written, e.g. `List-Unsubscribe`). */
  headers?: Record<string, string>
  /** The organization it is sent for (invitations, confirmations): mail budgets count by it. */
  organizationId?: string
}
