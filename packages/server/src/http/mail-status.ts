/**
 * Route: `GET /api/mail/status`, public: whether the instance sends e-mail (SMTP_URL set), so that the
 * dashboard's forgot-password page and invite form say so before anything is submitted.
 */
import { mailStatusEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { MailSettings } from '../mail/mail-settings.js'
import { route } from './route.js'

/** Register `GET /api/mail/status`; `mail` undefined: the answer says mail is not configured. */
export async function mailStatusRoutes(app: FastifyInstance, deps: { mail: MailSettings | undefined }) {
  route(app, mailStatusEndpoint, async () => ({
    success: true as const,
    data: { configured: deps.mail !== undefined },
  }))
}
