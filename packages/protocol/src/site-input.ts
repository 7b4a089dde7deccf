/**
 * The bodies that create and change a site and its private link, with the messages a 400 names the
 * field by. A domain is normalised as users type it (`https://WWW.Example.com/blog` ->
 * `www.example.com`).
 */
import { z } from 'zod'
import { nameField } from './name-field.js'

const hostnamePattern = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/

/**
 * Normalise what users type as a domain: scheme, path, port and trailing dot removed, lower case.
 * 'https://WWW.Example.com/blog' -> 'www.example.com'. Returns null when no valid host name remains.
 */
export function normalizeDomain(input: string): string | null {
  let host = input.trim().toLowerCase()
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
  host = host.split(/[/?#]/, 1)[0] ?? ''
  host = host.replace(/:\d+$/, '').replace(/\.$/, '')
  return hostnamePattern.test(host) ? host : null
}

/** A new site: `name` (1-100 characters) and `domain` (a host name, normalised). */
export const createSiteBody = z.object({
  name: nameField(),
  domain: z
    .string()
    .max(253, 'domain must be at most 253 characters')
    .transform((value, ctx) => {
      const domain = normalizeDomain(value)
      if (domain === null) {
        ctx.addIssue({ code: 'custom', message: 'domain must be a host name such as example.com' })
        return z.NEVER
      }
      return domain
    }),
})

/** `{name?, domain?}`, each as at creation; no other keys. */
export const updateSiteBody = createSiteBody.partial().strict()

/** What `POST .../private-link-config` does: a new key replacing any previous one, or no key. */
export const privateLinkActions = ['generate_private_link_key', 'revoke_private_link_key'] as const
/** One of `privateLinkActions`. */
export type PrivateLinkAction = (typeof privateLinkActions)[number]

/** `{action}`: generate or revoke the site's private link key. */
export const privateLinkBody = z.object({
  action: z.enum(privateLinkActions, { error: `must be one of ${privateLinkActions.join(', ')}` }),
})

/** A parsed new site. */
export type CreateSiteBody = z.output<typeof createSiteBody>
/** A parsed change of a site. */
export type UpdateSiteBody = z.output<typeof updateSiteBody>
/** A parsed private link action. */
export type PrivateLinkBody = z.output<typeof privateLinkBody>
