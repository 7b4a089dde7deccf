/**
 * The signed-in user's account: who they are, their API keys (scoped, optionally expiring; each key's
 * value is shown once), connecting an AI assistant (the MCP server), their password, two-factor sign-in, and the sessions where they are signed in.
 */
import { useState } from 'react'
import { api } from '../api/api'
import { AiAssistantCard } from '../components/ai-assistant-card'
import { ApiKeysCard } from '../components/api-keys-card'
import { AppShell } from '../components/app-shell'
import { PageHeading } from '../components/page-heading'
import { PasswordCard } from '../components/password-card'
import { SessionsCard } from '../components/sessions-card'
import { TwoFactorCard } from '../components/two-factor-card'
import { useResource } from '../lib/use-resource'
import { lastOrganization, useSession } from '../session'

/** The account page at `/account`. */
export function AccountPage() {
  const { user, organizations } = useSession()
  const sessions = useResource(`sessions:${user.id}`, api.sessions)
  // A key created by the assistant card remounts the key list, which loads it again.
  const [keysVersion, setKeysVersion] = useState(0)
  const last = lastOrganization()
  const organizationId = organizations?.some((o) => o.id === last)
    ? (last ?? undefined)
    : organizations?.[0]?.id

  return (
    <AppShell organizationId={organizationId} section="account">
      <PageHeading title="Account" />
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </dl>
      </section>
      <ApiKeysCard key={keysVersion} userId={user.id} />
      <AiAssistantCard onKeyCreated={() => setKeysVersion((version) => version + 1)} />
      <PasswordCard email={user.email} onChanged={sessions.reload} />
      <TwoFactorCard userId={user.id} email={user.email} onChanged={sessions.reload} />
      <SessionsCard sessions={sessions} />
    </AppShell>
  )
}
