/**
 * Outgoing mail settings: `SMTP_URL` (`smtp://user:pass@host:587`, STARTTLS when the server offers it;
 * `smtps://user:pass@host:465`, TLS from the start; user and password URL-encoded; nodemailer's URL
 * options such as `?tls.rejectUnauthorized=false` pass through) and `MAIL_FROM` (`Name <address>` or an
 * address; default `Pathlight <pathlight@host of BASE_URL>`). Without `SMTP_URL` nothing is sent: every
 * feature that would send refuses with `mailUnavailable()`.
 */
import { z } from 'zod'
import { AppError } from '../shared/errors.js'
import { DEFAULT_MAIL_BUDGET, type MailBudget } from './mail-budget.js'

/** What the outbox needs to send. */
export interface MailSettings {
  /** The SMTP server, as `SMTP_URL` gives it (nodemailer reads the URL). */
  smtpUrl: string
  /** The From header of every message. */
  from: string
  /** How often the mail worker looks for due messages, in ms (MAIL_POLL_MS). */
  pollMs: number
  /** Invitation and confirmation mails allowed (`mail-budget.ts`); default `DEFAULT_MAIL_BUDGET`. */
  budget?: MailBudget
}

/** The budget of these settings, or the default. */
export const mailBudgetOf = (settings: MailSettings): MailBudget => settings.budget ?? DEFAULT_MAIL_BUDGET

/** `SMTP_URL`: an smtp:// or smtps:// URL with a host. */
export const smtpUrlSchema = z.string().refine(
  (value) => {
    if (!URL.canParse(value)) return false
    const url = new URL(value)
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== ''
  },
  { message: 'must be smtp://[user:password@]host[:port] or smtps://...' },
)

const address = /^[^\s@<>"]+@[^\s@<>"]+$/
/** `MAIL_FROM`: `someone@example.com` or `Display Name <someone@example.com>`. */
export const mailFromSchema = z
  .string()
  .trim()
  .refine(
    (value) => {
      const named = /^([^<>]*)<([^<>]+)>$/.exec(value)
      return named ? address.test((named[2] ?? '').trim()) : address.test(value)
    },
    { message: 'must be an address (someone@example.com) or Name <someone@example.com>' },
  )

/**
 * The mail settings of the configuration, or undefined when `SMTP_URL` is unset (no e-mail).
 * @param baseUrl the public URL: its host names the default sender
 */
export function mailSettings(env: {
  smtpUrl: string | undefined
  mailFrom: string | undefined
  pollMs: number
  baseUrl: string
  budget?: MailBudget
}): MailSettings | undefined {
  if (env.smtpUrl === undefined) return undefined
  return {
    smtpUrl: env.smtpUrl,
    from: env.mailFrom ?? `Pathlight <pathlight@${new URL(env.baseUrl).hostname}>`,
    pollMs: env.pollMs,
    ...(env.budget && { budget: env.budget }),
  }
}

/** The refusal of every feature that would send e-mail while `SMTP_URL` is unset: 503 with the reason. */
export const mailUnavailable = () => new AppError(503, 'E-mail is not configured: set SMTP_URL')

/**
 * The settings, or the refusal.
 * @throws AppError 503 (`mailUnavailable`) when `SMTP_URL` is unset
 */
export function requireMail(settings: MailSettings | undefined): MailSettings {
  if (settings === undefined) throw mailUnavailable()
  return settings
}
