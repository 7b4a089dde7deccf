/**
 * Seed a running instance through its public HTTP routes, as a new user would: sign up the owner,
 * create an organization, a site and an API key.
 */
export interface SeededInstance {
  cookie: string
  organizationId: string
  siteId: number
  domain: string
  apiKey: string
}

/** @throws naming the route and the server's answer when a step fails */
export async function seedInstance(
  baseUrl: string,
  options: { email?: string; password?: string; domain?: string; siteName?: string } = {},
): Promise<SeededInstance> {
  const domain = options.domain ?? 'example.com'
  const send = async (url: string, body: unknown, cookie = '') => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`)
    return { json: (await response.json()) as Record<string, unknown>, response }
  }
  const signUp = await send('/api/auth/sign-up/email', {
    name: 'Owner',
    email: options.email ?? 'owner@example.com',
    password: options.password ?? 'correct horse battery staple',
  })
  const cookie = (signUp.response.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  const organization = await send('/api/organizations', { name: 'Demo' }, cookie)
  const organizationId = String(organization.json.id)
  const site = await send(
    `/api/organizations/${organizationId}/sites`,
    { name: options.siteName ?? 'Demo site', domain },
    cookie,
  )
  const key = (await send('/api/user/api-keys', { name: 'demo' }, cookie)).json.data as { key: string }
  return { cookie, organizationId, siteId: Number(site.json.siteId), domain, apiKey: key.key }
}
