/**
 * "Connect an AI assistant": the MCP server's endpoint, a one-click key of scope `mcp:read` (its value
 * shown once), and configuration snippets for common MCP clients with that key filled in. Clients that
 * sign in with OAuth need only the endpoint.
 */
import { useState } from 'react'
import { api } from '../api/api'
import { KEY_PLACEHOLDER, mcpEndpoint, mcpSnippets } from '../lib/mcp-snippets'
import { useAction } from '../lib/use-action'
import { CopyButton } from './copy-button'
import { FormError } from './form-error'
import { SecretNotice } from './secret-notice'

/** The card, below the API keys of the account page; `onKeyCreated` lets the key list show the new key. */
export function AiAssistantCard({ onKeyCreated }: { onKeyCreated?: () => void }) {
  const endpoint = mcpEndpoint(window.location.origin)
  const [key, setKey] = useState<string>()
  const [shown, setShown] = useState(false)
  const create = useAction()

  return (
    <section className="card" aria-labelledby="ai-assistant-title">
      <h2 id="ai-assistant-title">Connect an AI assistant</h2>
      <p>
        Ask your analytics from Claude, ChatGPT, Cursor or any client of the Model Context Protocol. The
        assistant reads your sites through the MCP server with a key of scope{' '}
        <strong>AI assistant (read)</strong>, or signs in with OAuth where the client offers it. For write
        tools (annotations, segments, goals) create a key of scope{' '}
        <strong>AI assistant (read and write)</strong> above.
      </p>
      <div className="secret-row">
        <span>Endpoint</span>
        <code>{endpoint}</code>
        <CopyButton text={endpoint} />
      </div>
      <FormError error={create.error} />
      {key && shown && (
        <SecretNotice title="Your new AI assistant key" value={key} onDone={() => setShown(false)} />
      )}
      {!key && (
        <button
          type="button"
          className="button button-primary"
          disabled={create.busy}
          onClick={() =>
            void create.run(async () => {
              const created = await api.createApiKey({
                name: 'AI assistant',
                scope: 'mcp:read',
                expiresAt: null,
              })
              setKey(created.key)
              setShown(true)
              onKeyCreated?.()
            })
          }
        >
          Create a read key for an assistant
        </button>
      )}
      {mcpSnippets(endpoint, key ?? KEY_PLACEHOLDER).map((snippet) => (
        <div key={snippet.client} className="snippet">
          <h3>
            {snippet.client} <span className="muted">({snippet.where})</span>
          </h3>
          <pre>
            <code>{snippet.text}</code>
          </pre>
          <CopyButton text={snippet.text} />
        </div>
      ))}
    </section>
  )
}
