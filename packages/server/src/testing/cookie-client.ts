/**
 * Test support: one browser's worth of HTTP against a listening server with `fetch`: it keeps the
 * cookies the server sets (dropping those it expires), sends them back, and gives state-changing
 * requests the server's own Origin, as a browser on the dashboard does.
 */

export interface CookieClientResponse {
  status: number
  headers: Headers
  /** The body as text. */
  text: string
  /** The body parsed as JSON (null when empty). @throws when it is not JSON */
  json(): unknown
}

export interface CookieClient {
  /** `method path` with an optional JSON body. */
  request(method: string, path: string, body?: unknown): Promise<CookieClientResponse>
  post(path: string, body?: unknown): Promise<CookieClientResponse>
  get(path: string): Promise<CookieClientResponse>
  /** The cookies held now, by name. */
  cookies(): ReadonlyMap<string, string>
  /** The Cookie header sent now (empty when none). */
  cookieHeader(): string
}

/** A client of the server at `baseUrl` (its origin is sent as Origin), with no cookies yet. */
export function cookieClient(baseUrl: string): CookieClient {
  const jar = new Map<string, string>()
  const origin = new URL(baseUrl).origin
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
  const keep = (headers: Headers) => {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator).trim()
      const value = pair.slice(separator + 1).trim()
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=').map((part) => part.trim())
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now()
        return false
      })
      if (expired || value === '') jar.delete(name)
      else jar.set(name, value)
    }
  }
  const request = async (method: string, path: string, body?: unknown): Promise<CookieClientResponse> => {
    const headers: Record<string, string> = {}
    if (jar.size > 0) headers.cookie = cookieHeader()
    if (method !== 'GET' && method !== 'HEAD') headers.origin = origin
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    keep(response.headers)
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: () => (text === '' ? null : JSON.parse(text)),
    }
  }
  return {
    request,
    post: (path, body = {}) => request('POST', path, body),
    get: (path) => request('GET', path),
    cookies: () => jar,
    cookieHeader,
  }
}
