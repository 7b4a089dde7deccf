/**
 * Row types of the mail outbox and the invitations (migration 013), merged into `MetadataSchema`.
 */

export type MailStatus = 'pending' | 'sent' | 'failed'

export interface MailMessageTable {
  id: string
  /** What sent it: `password-reset`, `invitation`, `member-added`, ... */
  kind: string
  recipient: string
  subject: string
  /** The parts as rendered; emptied once sent (they may hold one-time links). */
  html: string
  text: string
  /** JSON object of extra headers, `{}` for none. */
  headers: string
  status: MailStatus
  attempts: number
  next_attempt_at: string
  /** A worker's claim: no other worker takes the message before this time. */
  locked_until: string | null
  /** The last failure as the SMTP server or the connection reported it. */
  last_error: string | null
  created_at: string
  sent_at: string | null
  /** The organization it was sent for (invitations, confirmations; migration 015), else null. */
  organization_id: string | null
}

export type InvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked'

export interface InvitationTable {
  id: string
  organization_id: string
  /** Lower case. */
  email: string
  role: 'owner' | 'admin' | 'member'
  /** Lowercase hex SHA-256 of the token the link carries (the token itself is not stored). */
  token_hash: string
  invited_by: string
  status: InvitationStatus
  created_at: string
  expires_at: string
  /** When it was accepted, declined or revoked. */
  ended_at: string | null
}

export interface MailSchema {
  mail_message: MailMessageTable
  invitation: InvitationTable
}
