/**
 * The instance-wide OpenID Connect provider, from the environment: `OIDC_ISSUER` (discovery at
 * `<issuer>/.well-known/openid-configuration`), `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET` (sent as
 * `client_secret_basic`), `OIDC_ROLE_CLAIM` (the ID token claim that lists groups or roles, default
 * `groups`), `OIDC_ROLE_MAP` (`group:role` pairs, e.g. `analytics-admins:admin,analytics:member`),
 * `OIDC_ORGANIZATION` (the organization the provider's users join, made at first use),
 * `OIDC_ALLOW_LINKING` (whether a first SSO sign-in may link to an existing account with the same
 * verified address; default false) and `OIDC_NAME` (the button's provider name). Either all three of
 * issuer, client id and secret are set, or none.
 */

import { type Role, roles } from '@pathlight/protocol'
import { z } from 'zod'

/** The provider's settings as the service uses them. */
export interface OidcSettings {
  issuer: string
  clientId: string
  clientSecret: string
  /** The ID token claim read for groups or roles (a string or an array of strings). */
  roleClaim: string
  /** Group or role name at the provider -> Pathlight role; the highest one matched wins. */
  roleMap: ReadonlyMap<string, Role>
  organization: string
  allowLinking: boolean
  name: string
}

/** The role map's text, `group:role[,group:role...]`, parsed; a bad pair is an issue naming the setting. */
const roleMapSchema = z.string().transform((value, ctx) => {
  const map = new Map<string, Role>()
  for (const pair of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const at = pair.lastIndexOf(':')
    const group = pair.slice(0, at).trim()
    const role = pair.slice(at + 1).trim()
    if (at <= 0 || !(roles as readonly string[]).includes(role)) {
      ctx.addIssue({
        code: 'custom',
        message: `"${pair}" is not group:role with role one of ${roles.join(', ')}`,
      })
      continue
    }
    map.set(group, role as Role)
  }
  return map
})

/** The OIDC_* variables; spread into config.ts's schema. */
export const oidcEnvShape = {
  OIDC_ISSUER: z
    .string()
    .url()
    .refine((v) => v.startsWith('https://') || v.startsWith('http://'), 'must be an http(s) URL')
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  OIDC_ROLE_CLAIM: z.string().min(1).max(200).default('groups'),
  OIDC_ROLE_MAP: roleMapSchema.optional(),
  OIDC_ORGANIZATION: z.string().min(1).max(200).default('Pathlight'),
  OIDC_ALLOW_LINKING: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .transform((v) => v === 'true' || v === '1' || v === 'yes')
    .default(false),
  OIDC_NAME: z.string().min(1).max(100).default('SSO'),
}

type OidcEnv = z.infer<z.ZodObject<typeof oidcEnvShape>>

/**
 * The provider from the parsed variables.
 * @returns undefined when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all unset
 * @throws Error naming the missing ones when only some are set
 */
export function oidcSettings(env: OidcEnv): OidcSettings | undefined {
  const required = {
    OIDC_ISSUER: env.OIDC_ISSUER,
    OIDC_CLIENT_ID: env.OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET,
  }
  const missing = Object.entries(required)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k)
  if (missing.length === 3) return undefined
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(', ')}: required with ${Object.keys(required)
        .filter((k) => !missing.includes(k))
        .join(', ')}`,
    )
  }
  return {
    issuer: (env.OIDC_ISSUER as string).replace(/\/$/, ''),
    clientId: env.OIDC_CLIENT_ID as string,
    clientSecret: env.OIDC_CLIENT_SECRET as string,
    roleClaim: env.OIDC_ROLE_CLAIM,
    roleMap: env.OIDC_ROLE_MAP ?? new Map(),
    organization: env.OIDC_ORGANIZATION,
    allowLinking: env.OIDC_ALLOW_LINKING,
    name: env.OIDC_NAME,
  }
}
