/**
 * Where a reset link leads (`/reset-password?token=`): choose the new password. Setting it signs the
 * account out everywhere, so the page then leads to sign-in. A link that was used, expired or mangled
 * arrives with `?error=INVALID_TOKEN` (or is refused on submit) and offers a new one.
 */
import { useState } from 'react'
import { api } from '../api/api'
import { AuthLayout } from '../components/auth-layout'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { PageHeading } from '../components/page-heading'
import { useAction } from '../lib/use-action'
import { Link } from '../router/link'
import { routePath } from '../router/routes'

/** The new-password form of a reset link's token. */
export function ResetPasswordPage({ token, error }: { token?: string; error?: string }) {
  const [password, setPassword] = useState('')
  const [done, setDone] = useState(false)
  const action = useAction()
  const again = <Link to={routePath({ name: 'forgotPassword' })}>Ask for a new link</Link>
  if (!token || error) {
    return (
      <AuthLayout>
        <PageHeading title="Reset your password" />
        <p role="alert">This link is not valid any more: it was used already, or it expired.</p>
        <p className="auth-switch">{again}</p>
      </AuthLayout>
    )
  }
  return (
    <AuthLayout>
      <PageHeading title="Choose a new password" />
      {done ? (
        <>
          <p role="status">Your password is set. You were signed out everywhere; sign in with the new one.</p>
          <p className="auth-switch">
            <Link to={routePath({ name: 'signIn' })}>Sign in</Link>
          </p>
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              await api.resetPassword(password, token)
              setDone(true)
            })
          }}
        >
          <FormError error={action.error} />
          {action.error?.status === 400 && <p className="hint">{again}</p>}
          <Field
            label="New password"
            hint="At least 8 characters."
            errors={action.error?.field('newPassword')}
          >
            {(control) => (
              <input
                {...control}
                type="password"
                autoComplete="new-password"
                required
                minLength={8}
                maxLength={256}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button button-primary button-wide" disabled={action.busy}>
            {action.busy ? 'Saving…' : 'Set the password'}
          </button>
        </form>
      )}
    </AuthLayout>
  )
}
