/**
 * Sending one message over SMTP with nodemailer, from the settings of `SMTP_URL` and `MAIL_FROM`.
 * Connection problems and 4xx replies are transient (the outbox retries). A 5xx reply is permanent
 * only when it refuses this message (its recipient at RCPT TO, or its content at DATA); a 5xx refusal
 * of the login or of the sender is the instance's configuration (SMTP_URL, MAIL_FROM), which the
 * operator can fix: those messages keep being retried on the schedule.
 */
import nodemailer from 'nodemailer'
import type { SendMail } from './mail-outbox.js'
import type { MailSettings } from './mail-settings.js'

/** A sender over one nodemailer transport (connections are opened per message and closed after). */
export function createSmtpSender(settings: MailSettings): SendMail {
  const transport = nodemailer.createTransport(
    {
      url: settings.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    },
    { from: settings.from },
  )
  // Message-IDs on the sender's domain, unique per outbox row (a resent message keeps its id).
  const domain = /@([^\s@<>]+)>?\s*$/.exec(settings.from)?.[1] ?? 'pathlight.invalid'
  return async (mail) => {
    try {
      await transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        messageId: `<${mail.id}@${domain}>`,
      })
      return { ok: true }
    } catch (error) {
      return {
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        permanent: refusesMessage(error),
      }
    }
  }
}

/** Whether nodemailer's error is a refusal of the message itself (see the module comment). */
function refusesMessage(error: unknown): boolean {
  const { responseCode, command, code } = error as {
    responseCode?: unknown
    command?: unknown
    code?: unknown
  }
  // An address nodemailer refuses before sending (no reply): it will never be valid.
  if (code === 'EENVELOPE' && command === 'API') return true
  const refused = typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600
  return refused && (command === 'RCPT TO' || command === 'DATA')
}
