/** Routes: an organization's single sign-on settings (`contracts/sso.ts`). Authenticated scope. */
import { getSsoSettingsEndpoint, updateSsoSettingsEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { getSsoSettings, setSsoSettings } from '../auth/sso-settings.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { adminOf } from './organization-access.js'
import { route } from './route.js'

/** Register the SSO settings routes. */
export async function ssoSettingsRoutes(app: FastifyInstance, { db }: { db: MetadataDb }) {
  route(app, getSsoSettingsEndpoint, {
    resolve: adminOf(db, 'Reading the SSO settings'),
    handle: async ({ params }) => getSsoSettings(db, params.organizationId),
  })
  route(app, updateSsoSettingsEndpoint, {
    resolve: adminOf(db, 'Changing the SSO settings'),
    handle: async ({ params, body, resolved }) =>
      setSsoSettings(db, params.organizationId, resolved.userId, body),
  })
}
