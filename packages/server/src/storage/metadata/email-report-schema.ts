/**
 * Row types of the scheduled e-mail reports (migration 014), merged into `MetadataSchema`.
 */

import type { EmailReportFrequency } from '@pathlight/protocol'

/** How often a report goes out: the protocol's enum, which the API documents. */
export type { EmailReportFrequency }

export interface EmailReportTable {
  id: string
  site_id: number
  frequency: EmailReportFrequency
  /** IANA zone name: the calendar the weeks and months are cut in. */
  time_zone: string
  created_by: string
  created_at: string
}

/** `pending`: waits for the address to confirm; `active`: gets the reports; `unsubscribed`: no more. */
export type EmailReportRecipientStatus = 'pending' | 'active' | 'unsubscribed'

export interface EmailReportRecipientTable {
  id: string
  report_id: string
  /** Lower case. */
  email: string
  status: EmailReportRecipientStatus
  /** Random, URL-safe: the confirm and unsubscribe links carry it. */
  token: string
  created_at: string
  confirmed_at: string | null
  unsubscribed_at: string | null
}

/** A period sent: one row per report and period, so each period goes out once. */
export interface EmailReportSendTable {
  report_id: string
  /** First day of the period, 'YYYY-MM-DD' in the report's zone. */
  start_date: string
  /** Last day (included). */
  end_date: string
  sent_at: string
  /** Messages queued. */
  recipients: number
}

export interface EmailReportSchema {
  email_report: EmailReportTable
  email_report_recipient: EmailReportRecipientTable
  email_report_send: EmailReportSendTable
}
