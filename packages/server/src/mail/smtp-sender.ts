/**
 * Sending one message over SMTP with nodemailer, from the settings of `SMTP_URL` and `MAIL_FROM`.
 * Connection problems and 4xx replies are transient (the outbox retries); a 5xx reply is permanent.
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
      const code = (error as { responseCode?: unknown }).responseCode
      const permanent = typeof code === 'number' && code >= 500 && code < 600
      return { ok: false, error: error instanceof Error ? error.message : String(error), permanent }
    }
  }
}
