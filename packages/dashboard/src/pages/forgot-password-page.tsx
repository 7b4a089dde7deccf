/**
 * "Forgot password?": asks for the account's address and has the server mail a one-time link (Better
 * Auth's reset flow). The answer is the same whether or not an account has the address. Without e-mail
 * on the instance (`GET /api/mail/status`) the page says so before anything is sent, and tells who can
 * help; should that status be unknown, the server's refusal says the same after sending.
 */
import { useState } from 'react'
import { api } from '../api/api'
import { AuthLayout } from '../components/auth-layout'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { PageHeading } from '../components/page-heading'
import { useAction } from '../lib/use-action'
import { MAIL_NOT_CONFIGURED, useMailConfigured } from '../lib/use-mail-status'
import { Link } from '../router/link'
import { routePath } from '../router/routes'

/** The request form, then what to expect. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const action = useAction()
  const mailConfigured = useMailConfigured()
  const noMail = mailConfigured === false
  const unavailable = noMail || action.error?.status === 503
  return (
    <AuthLayout>
      <PageHeading title="Reset your password" />
      {sent ? (
        <p role="status">
          If an account on this Pathlight has the address <strong>{email}</strong>, a link to choose a new
          password is on its way. It works once, within an hour.
        </p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            void action.run(async () => {
              await api.requestPasswordReset(
                email,
                `${window.location.origin}${routePath({ name: 'resetPassword' })}`,
              )
              setSent(true)
            })
          }}
        >
          <p>Enter the address of your account: we will e-mail you a link to choose a new password.</p>
          {noMail && (
            <p className="notice" data-testid="mail-not-configured">
              {MAIL_NOT_CONFIGURED}. This instance sends no e-mail, so it cannot mail you a link.
            </p>
          )}
          {!noMail && <FormError error={action.error} />}
          {unavailable && (
            <p className="hint">
              The operator of this instance can give you a link instead:{' '}
              <code>npx pathlight reset-password</code> followed by your address, in the Pathlight folder.
            </p>
          )}
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
          <button
            type="submit"
            className="button button-primary button-wide"
            disabled={action.busy || noMail}
          >
            {action.busy ? 'Sending…' : 'Send the link'}
          </button>
        </form>
      )}
      <p className="auth-switch">
        <Link to={routePath({ name: 'signIn' })}>Back to sign in</Link>
      </p>
    </AuthLayout>
  )
}
