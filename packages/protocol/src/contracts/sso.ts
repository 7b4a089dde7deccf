/**
 * An organization's single sign-on settings: `ssoOnly`, whose members sign in through the identity
 * provider only (password sign-in and password reset are refused for them with `SSO_REQUIRED`; API keys
 * keep working; the instance owner keeps a password as break-glass). Admins and owners read and change
 * them; a caller who is not a member gets 404.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import * as at from './addresses.js'
import { organizationParams } from './invitations.js'

/** An organization's SSO settings. */
export const ssoSettings = z.object({
  ssoOnly: doc(z.boolean(), 'Members sign in through SSO only (the instance owner excepted)'),
})

/** `GET /api/organizations/:organizationId/sso`. */
export const getSsoSettingsEndpoint = endpoint({
  ...at.getSsoSettings,
  summary: "The organization's single sign-on settings",
  tag: 'Organizations',
  access: 'admin',
  params: organizationParams,
  responses: { 200: { description: 'The settings', schema: ssoSettings } },
})

/** `PUT /api/organizations/:organizationId/sso`. */
export const updateSsoSettingsEndpoint = endpoint({
  ...at.updateSsoSettings,
  summary: "Change the organization's single sign-on settings",
  description: 'Audited as `sso.settings_changed`.',
  tag: 'Organizations',
  access: 'admin',
  params: organizationParams,
  body: ssoSettings.strict(),
  bodySubject: 'SSO settings',
  responses: { 200: { description: 'The settings after the change', schema: ssoSettings } },
})

/** Every SSO endpoint (the route/contract coverage test reads these). */
export const ssoEndpoints = [getSsoSettingsEndpoint, updateSsoSettingsEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    getSsoSettings: typeof getSsoSettingsEndpoint
    updateSsoSettings: typeof updateSsoSettingsEndpoint
  }
}
