/**
 * Route: `GET /api/admin/mail`, the instance's outgoing mail for its owner (`mail/mail-outbox.ts`):
 * the messages newest first (without their parts), the counts by status, and whether mail is
 * configured. Failures to send show here with the SMTP server's last answer; `POST .../:mailId/retry`
 * sends a failed message again.
 */
import { listMailEndpoint, retryMailEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { INSTANCE_OWNER_SETTING } from '../auth/better-auth.js'
import { listMail, mailCounts, retryMail } from '../mail/mail-outbox.js'
import type { MailSettings } from '../mail/mail-settings.js'
import { forbidden } from '../shared/errors.js'
import { type Clock, systemClock } from '../shared/time.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import { route } from './route.js'

/** Register `GET /api/admin/mail` and its retry; `mail` undefined: the answer says mail is not configured. */
export async function mailRoutes(
  app: FastifyInstance,
  deps: { db: MetadataDb; mail: MailSettings | undefined; clock?: Clock },
) {
  const clock = deps.clock ?? systemClock
  const requireOwner = async ({ caller }: { caller: { userId: string } }) => {
    if ((await getSetting(deps.db, INSTANCE_OWNER_SETTING)) !== caller.userId) {
      throw forbidden('Only the instance owner can use the admin routes')
    }
  }
  route(app, listMailEndpoint, {
    resolve: requireOwner,
    handle: async ({ query }) => {
      const [data, counts] = await Promise.all([
        listMail(deps.db, { status: query.status, limit: query.limit }),
        mailCounts(deps.db),
      ])
      return { success: true as const, data, meta: { configured: deps.mail !== undefined, ...counts } }
    },
  })
  route(app, retryMailEndpoint, {
    resolve: requireOwner,
    handle: async ({ params }) => ({
      success: true as const,
      data: await retryMail(deps.db, params.mailId, new Date(clock())),
    }),
  })
}
