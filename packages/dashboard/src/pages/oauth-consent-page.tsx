/**
 * The consent page of OAuth for MCP clients (`/oauth/consent`): Better Auth's OAuth provider sends a
 * signed-in user here with the signed authorization request in the query string (`client_id`,
 * `scope`, ...). Allowing or denying posts that query back to `POST /api/auth/oauth2/consent`, whose
 * answer names where the browser goes next (the client's redirect URI, with a code or an error).
 */
import { useState } from 'react'

const SCOPE_TEXT: Record<string, string> = {
  'mcp:read': 'read the analytics of every site you can read',
  'mcp:write': 'also create annotations, segments and goals where your role allows it',
  offline_access: 'stay connected (a refresh token) until you revoke it',
}

/** The page; reads the request from `window.location.search`. */
export function OAuthConsentPage() {
  const query = new URLSearchParams(window.location.search)
  const scopes = (query.get('scope') ?? '').split(' ').filter(Boolean)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  const answer = async (accept: boolean) => {
    setBusy(true)
    setError(undefined)
    try {
      const response = await fetch('/api/auth/oauth2/consent', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify({ accept, oauth_query: window.location.search.slice(1) }),
      })
      const body = (await response.json()) as { url?: string; redirect_uri?: string; message?: string }
      const next = body.url ?? body.redirect_uri
      if (!response.ok || !next) throw new Error(body.message ?? `The server answered ${response.status}`)
      window.location.assign(next)
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught))
      setBusy(false)
    }
  }

  return (
    <main className="auth-page">
      <section className="card" aria-labelledby="consent-title">
        <h1 id="consent-title">Connect an AI assistant</h1>
        <p>
          The application <code>{query.get('client_id')}</code> asks to act as you on Pathlight, to:
        </p>
        <ul>
          {scopes.map((scope) => (
            <li key={scope}>{SCOPE_TEXT[scope] ?? scope}</li>
          ))}
        </ul>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="row">
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void answer(true)}
          >
            Allow
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={() => void answer(false)}
          >
            Deny
          </button>
        </div>
      </section>
    </main>
  )
}
