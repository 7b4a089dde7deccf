/**
 * Create an account (Better Auth signs it in at once). The first account of an instance owns it;
 * later ones join organizations when an admin adds them or they accept an invitation. The server may
 * have sign-up closed (except to invited addresses).
 */
import type { SessionInfo } from '@pathlight/protocol'
import { useState } from 'react'
import { api } from '../api/api'
import { AuthLayout } from '../components/auth-layout'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { PageHeading } from '../components/page-heading'
import { useAction } from '../lib/use-action'
import { Link } from '../router/link'

/** The sign-up form; `onSignedIn` receives the new session. */
export function SignUpPage({ onSignedIn }: { onSignedIn: (session: SessionInfo | null) => void }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const action = useAction()
  return (
    <AuthLayout>
      <PageHeading title="Create your account" />
      <p className="lead">The first account on a new Pathlight instance becomes its owner.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await api.signUp(name, email, password)
            onSignedIn(await api.session())
          })
        }}
      >
        <FormError error={action.error} />
        <Field label="Name" errors={action.error?.field('name')}>
          {(control) => (
            <input
              {...control}
              autoComplete="name"
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label="Email" errors={action.error?.field('email')}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password" hint="At least 8 characters." errors={action.error?.field('password')}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          {action.busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="auth-switch">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </AuthLayout>
  )
}
