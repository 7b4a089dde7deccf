/**
 * An organization's single sign-on settings: `ssoOnly`, whose members sign in through the identity
 * provider only (password sign-in and password reset are refused for them with `SSO_REQUIRED`; API keys
 * keep working; the instance owner keeps a password as break-glass). Admins and owners read and change
 * them; a caller who is not a member gets 404. An organization's owners also set its own OpenID Connect
 * provider and the e-mail domains it owns: "Sign in with SSO" sends an address of those domains there.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { roles } from '../enums.js'
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

/** One entry of a provider's role map: a group or role name at the provider and the Pathlight role. */
export const ssoRoleMapping = z.object({
  group: doc(z.string().trim().min(1).max(200), 'A value of the role claim (a group or role name)'),
  role: doc(z.enum(roles), 'The Pathlight role it gives'),
})

/** An e-mail domain: lowercase host name with at least one dot. */
const emailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain such as example.com',
  )

/** An organization's own identity provider as the API answers it (the client secret is never sent back). */
export const ssoProvider = z.object({
  providerId: doc(z.string(), 'The Better Auth provider id (`org-<organizationId>`)'),
  callbackUrl: doc(z.string(), 'The redirect URI to register at the provider'),
  issuer: z.string(),
  clientId: z.string(),
  roleClaim: z.string(),
  roleMap: z.array(ssoRoleMapping),
  domains: doc(z.array(z.string()), 'The e-mail domains whose addresses sign in through this provider'),
  name: doc(z.string(), "The provider's name, shown on the sign-in page"),
  updatedAt: z.string(),
})

/** `GET .../sso/provider`: the provider, or null with the callback URL to register before saving one. */
export const ssoProviderAnswer = z.object({
  provider: ssoProvider.nullable(),
  callbackUrl: z.string(),
})

/** The body of `PUT .../sso/provider`. */
export const ssoProviderInput = z
  .object({
    issuer: doc(
      z
        .string()
        .trim()
        .url()
        .max(500)
        .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL'),
      'The issuer URL; `<issuer>/.well-known/openid-configuration` must answer when saving',
    ),
    clientId: z.string().trim().min(1).max(500),
    clientSecret: doc(
      z.string().min(1).max(2000).optional(),
      'Required when the organization has no provider yet; omitted, the stored one is kept',
    ),
    roleClaim: z.string().trim().min(1).max(200).default('groups'),
    roleMap: z.array(ssoRoleMapping).max(100).default([]),
    domains: doc(
      z.array(emailDomain).min(1).max(50),
      'E-mail domains this provider owns; not a public mail domain, not one another organization owns',
    ),
    name: z.string().trim().min(1).max(100).default('SSO'),
  })
  .strict()

/** The body of `PUT .../sso/provider` as a client writes it (defaults may be left out). */
export type SsoProviderBody = z.input<typeof ssoProviderInput>
/** What the provider routes answer. */
export type SsoProviderState = z.infer<typeof ssoProviderAnswer>

/** `GET /api/organizations/:organizationId/sso/provider`. */
export const getSsoProviderEndpoint = endpoint({
  ...at.getSsoProvider,
  summary: "The organization's own identity provider",
  tag: 'Organizations',
  access: 'owner',
  params: organizationParams,
  responses: { 200: { description: 'The provider, or null', schema: ssoProviderAnswer } },
})

/** `PUT /api/organizations/:organizationId/sso/provider`. */
export const updateSsoProviderEndpoint = endpoint({
  ...at.updateSsoProvider,
  summary: "Set the organization's own identity provider and the e-mail domains it owns",
  description:
    'The issuer is checked by discovery (400 naming `issuer` when it fails). A public mail domain is ' +
    'refused (400), and so is a domain another organization owns (409). Audited as `sso.provider_changed`.',
  tag: 'Organizations',
  access: 'owner',
  params: organizationParams,
  body: ssoProviderInput,
  bodySubject: 'identity provider',
  responses: {
    200: { description: 'The provider after the change', schema: ssoProviderAnswer },
    409: 'A domain is owned by another organization',
  },
})

/** `DELETE /api/organizations/:organizationId/sso/provider`. */
export const deleteSsoProviderEndpoint = endpoint({
  ...at.deleteSsoProvider,
  summary: "Remove the organization's own identity provider",
  description: 'Its domains are released. Audited as `sso.provider_removed`.',
  tag: 'Organizations',
  access: 'owner',
  params: organizationParams,
  responses: { 200: { description: 'Removed (or there was none)', schema: ssoProviderAnswer } },
})

/** Every SSO endpoint (the route/contract coverage test reads these). */
export const ssoEndpoints = [
  getSsoSettingsEndpoint,
  updateSsoSettingsEndpoint,
  getSsoProviderEndpoint,
  updateSsoProviderEndpoint,
  deleteSsoProviderEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    getSsoSettings: typeof getSsoSettingsEndpoint
    updateSsoSettings: typeof updateSsoSettingsEndpoint
    getSsoProvider: typeof getSsoProviderEndpoint
    updateSsoProvider: typeof updateSsoProviderEndpoint
    deleteSsoProvider: typeof deleteSsoProviderEndpoint
  }
}
