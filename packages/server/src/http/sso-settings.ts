/**
 * Routes: an organization's single sign-on settings and its own identity provider (`contracts/sso.ts`).
 * Authenticated scope.
 */
import {
  deleteSsoProviderEndpoint,
  getSsoProviderEndpoint,
  getSsoSettingsEndpoint,
  updateSsoProviderEndpoint,
  updateSsoSettingsEndpoint,
} from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import type { Auth } from '../auth/better-auth.js'
import {
  type DiscoverIssuer,
  getSsoProvider,
  removeSsoProvider,
  setSsoProvider,
} from '../auth/organization-oidc.js'
import { getSsoSettings, setSsoSettings } from '../auth/sso-settings.js'
import { forbidden } from '../shared/errors.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { adminOf, memberOf } from './organization-access.js'
import { route } from './route.js'

/** The owner step of the provider routes. @throws AppError 404 for a non-member, 403 for a non-owner */
const ownerOf =
  (db: MetadataDb, what: string) => async (access: Parameters<ReturnType<typeof memberOf>>[0]) => {
    const actor = await memberOf(db)(access)
    if (actor.role !== 'owner') throw forbidden(`${what} requires the owner role`)
    return actor
  }

/**
 * Register the SSO settings routes and those of the organization's own provider (owners only).
 * @param auth Better Auth, whose secret encrypts the provider's client secret
 * @param discover the issuer check at saving (default: discovery over HTTP)
 * @param allowPrivateIssuers issuers on loopback, private or link-local addresses are accepted
 */
export async function ssoSettingsRoutes(
  app: FastifyInstance,
  {
    db,
    auth,
    baseUrl,
    discover,
    allowPrivateIssuers = false,
  }: {
    db: MetadataDb
    auth: Auth
    baseUrl: string
    discover?: DiscoverIssuer
    allowPrivateIssuers?: boolean
  },
) {
  route(app, getSsoProviderEndpoint, {
    resolve: ownerOf(db, "Reading the organization's identity provider"),
    handle: async ({ params }) => getSsoProvider(db, params.organizationId, baseUrl),
  })
  route(app, updateSsoProviderEndpoint, {
    resolve: ownerOf(db, "Changing the organization's identity provider"),
    handle: async ({ params, body, resolved }) =>
      setSsoProvider(
        { db, secret: (await auth.$context).secret, baseUrl, discover, allowPrivateIssuers },
        params.organizationId,
        resolved.userId,
        body,
      ),
  })
  route(app, deleteSsoProviderEndpoint, {
    resolve: ownerOf(db, "Removing the organization's identity provider"),
    handle: async ({ params, resolved }) =>
      removeSsoProvider(db, params.organizationId, resolved.userId, baseUrl),
  })
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
