/** Sign in with email and password (Better Auth); the app then opens `next` or the home page. */
import type { SessionInfo } from '@pathlight/protocol'
import { useState } from 'react'
import { api } from '../api/api'
import { AuthLayout } from '../components/auth-layout'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { PageHeading } from '../components/page-heading'
import { useAction } from '../lib/use-action'
import { Link } from '../router/link'

/** The sign-in form; `onSignedIn` receives the new session. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: SessionInfo | null) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const action = useAction()
  return (
    <AuthLayout>
      <PageHeading title="Sign in" />
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await api.signIn(email, password)
            onSignedIn(await api.session())
          })
        }}
      >
        <FormError error={action.error} />
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
        <Field label="Password" errors={action.error?.field('password')}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p className="auth-switch">
        New to this Pathlight? <Link to="/sign-up">Create an account</Link>
      </p>
    </AuthLayout>
  )
}
