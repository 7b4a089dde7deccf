/**
 * The outgoing mail of the instance, for its owner: the outbox's messages (pending, sent, failed) with
 * their attempts and last error, so failures to send are visible, and a failed message sent again.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { component, doc } from '../openapi-registry.js'
import { timestamp } from '../schema-fields.js'
import * as at from './addresses.js'

const mailStatus = doc(
  z.enum(['pending', 'sent', 'failed']),
  '`pending`: due or waiting for a retry; `sent`: accepted by the SMTP server; `failed`: given up',
)

/** `GET /api/admin/mail?status=&limit=`. */
export const mailListQuery = z.object({
  status: mailStatus.optional(),
  limit: doc(
    z.coerce.number().int().min(1).max(500),
    'At most this many, newest first (default 100)',
  ).default(100),
})

/** One message of the outbox (its parts are not shown: they may hold one-time links). */
export const mailMessage = component(
  'MailMessage',
  z.object({
    id: z.string(),
    kind: doc(z.string(), 'What sent it: `password-reset`, `invitation`, `member-added`, ...'),
    to: z.string(),
    subject: z.string(),
    status: mailStatus,
    attempts: z.int().min(0),
    lastError: doc(z.string().nullable(), 'The last failure, as the SMTP server or the connection said it'),
    createdAt: timestamp(),
    nextAttemptAt: doc(timestamp().nullable(), 'When a pending message is tried next'),
    sentAt: timestamp().nullable(),
  }),
  'One message of the mail outbox.',
)

/** `GET /api/admin/mail`: the outbox, newest first, with the counts by status. */
export const listMailEndpoint = endpoint({
  ...at.listMail,
  summary: 'Outgoing mail: pending, sent and failed messages',
  description:
    'Newest first. `configured` is false when SMTP_URL is unset (nothing is sent; features refuse with 503).',
  tag: 'Admin',
  access: 'instanceOwner',
  query: mailListQuery,
  responses: {
    200: {
      description: 'The messages and the counts by status',
      schema: z.object({
        success: z.literal(true),
        data: z.array(mailMessage),
        meta: z.object({
          configured: z.boolean(),
          pending: z.int().min(0),
          sent: z.int().min(0),
          failed: z.int().min(0),
        }),
      }),
    },
  },
})

/** `POST /api/admin/mail/:mailId/retry`: send a failed message again, on a fresh retry schedule. */
export const retryMailEndpoint = endpoint({
  ...at.retryMail,
  summary: 'Send a failed message again',
  description:
    'The message is due at once and gets the whole retry schedule again (after fixing SMTP_URL or MAIL_FROM, say).',
  tag: 'Admin',
  access: 'instanceOwner',
  params: z.object({ mailId: doc(z.string(), 'The message id') }),
  responses: {
    200: { description: 'Pending again', schema: z.object({ success: z.literal(true), data: mailMessage }) },
    404: 'No message with this id',
    409: 'Only a failed message can be sent again',
  },
})

/**
 * `GET /api/mail/status`: whether the instance sends e-mail, so that forms which would mail (forgot
 * password, invitations) say so before they are submitted. Public: the password reset request tells
 * anyone the same by its 503.
 */
export const mailStatusEndpoint = endpoint({
  ...at.mailStatus,
  summary: 'Whether this instance sends e-mail',
  description:
    '`configured` is false when SMTP_URL is unset: password reset requests and invitations then answer 503.',
  tag: 'Auth',
  access: 'public',
  responses: {
    200: {
      description: 'Whether mail is configured',
      schema: z.object({
        success: z.literal(true),
        data: z.object({ configured: doc(z.boolean(), 'SMTP_URL is set') }),
      }),
    },
  },
})

/** Every mail endpoint (the route/contract coverage test reads these). */
export const mailEndpoints = [listMailEndpoint, retryMailEndpoint, mailStatusEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    listMail: typeof listMailEndpoint
    retryMail: typeof retryMailEndpoint
    mailStatus: typeof mailStatusEndpoint
  }
}
