/**
 * Sign in with email and password (Better Auth); the app then opens `next` or the home page. When the
 * instance has an identity provider, "Sign in with SSO" sends the browser there instead (when
 * organizations have providers of their own, it asks the e-mail address first and sends the browser to
 * the provider owning its domain, the instance-wide one otherwise); a refused
 * single sign-on comes back here with `?error=<code>`, shown above the form. For an
 * account with two-factor sign-in, the right password gives no session yet: the page asks for the
 * code of the authenticator app, or one of the backup codes, and only that signs in.
 */
import type { SessionInfo } from '@pathlight/protocol'
import { useEffect, useState } from 'react'
import { api } from '../api/api'
import { AuthLayout } from '../components/auth-layout'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { PageHeading } from '../components/page-heading'
import type { SsoConfig } from '../lib/auth'
import { ssoErrorText } from '../lib/sso-error-text'
import { useAction } from '../lib/use-action'
import { Link } from '../router/link'
import { routePath } from '../router/routes'

/** The sign-in form; `onSignedIn` receives the new session. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: SessionInfo | null) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [needsCode, setNeedsCode] = useState(false)
  const action = useAction()
  const sso = useAction()
  const [ssoConfig, setSsoConfig] = useState<SsoConfig | null>(null)
  const [ssoEmail, setSsoEmail] = useState<string | null>(null)
  const query = new URLSearchParams(window.location.search)
  const ssoError = query.get('error')
  useEffect(() => {
    api.ssoConfig().then(setSsoConfig, () => setSsoConfig(null))
  }, [])

  if (needsCode) {
    return (
      <AuthLayout>
        <PageHeading title="Sign in" />
        <CodeForm
          onSignedIn={onSignedIn}
          onStartOver={() => {
            action.clear()
            setNeedsCode(false)
          }}
        />
      </AuthLayout>
    )
  }
  return (
    <AuthLayout>
      <PageHeading title="Sign in" />
      {ssoError && (
        <div role="alert" className="notice notice-error">
          {ssoErrorText(ssoError, query.get('error_description'))}
        </div>
      )}
      {ssoConfig?.enabled && (
        <div className="sso-sign-in">
          <FormError error={sso.error} />
          {ssoEmail === null ? (
            <button
              type="button"
              className="button button-primary button-wide"
              disabled={sso.busy}
              onClick={() => {
                if (ssoConfig.byEmail) {
                  setSsoEmail(email)
                  return
                }
                void sso.run(async () => {
                  await api.signInWithSso(ssoConfig.providerId, query.get('next') || '/')
                })
              }}
            >
              {sso.busy ? 'Opening your identity provider…' : 'Sign in with SSO'}
            </button>
          ) : (
            <form
              aria-label="Sign in with SSO"
              onSubmit={(event) => {
                event.preventDefault()
                void sso.run(async () => {
                  const found = await api.ssoProviderFor(ssoEmail)
                  await api.signInWithSso(found.providerId, query.get('next') || '/')
                })
              }}
            >
              <Field label="Work e-mail" hint="You go to your organization's identity provider.">
                {(control) => (
                  <input
                    {...control}
                    type="email"
                    autoComplete="email"
                    required
                    value={ssoEmail}
                    onChange={(e) => setSsoEmail(e.target.value)}
                  />
                )}
              </Field>
              <button type="submit" className="button button-primary button-wide" disabled={sso.busy}>
                {sso.busy ? 'Opening your identity provider…' : 'Continue with SSO'}
              </button>
            </form>
          )}
          {ssoConfig.name && ssoConfig.name !== 'SSO' && <p>Through {ssoConfig.name}</p>}
          <p className="auth-divider">or with your password</p>
        </div>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            const answer = await api.signIn(email, password)
            if (answer?.twoFactorRedirect) {
              setPassword('')
              setNeedsCode(true)
              return
            }
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
        <Link to={routePath({ name: 'forgotPassword' })}>Forgot password?</Link>
      </p>
      <p className="auth-switch">
        New to this Pathlight? <Link to="/sign-up">Create an account</Link>
      </p>
    </AuthLayout>
  )
}

/**
 * The second step: a code from the authenticator app (6 digits; spaces are ignored) or, on request, a
 * backup code. Wrong codes are counted by the server like wrong passwords.
 */
function CodeForm({
  onSignedIn,
  onStartOver,
}: {
  onSignedIn: (session: SessionInfo | null) => void
  onStartOver: () => void
}) {
  const [backup, setBackup] = useState(false)
  const [code, setCode] = useState('')
  const verify = useAction()
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault()
        void verify.run(async () => {
          const entered = code.replace(/\s+/g, '')
          await (backup ? api.verifyBackupCode(entered) : api.verifyTotp(entered))
          onSignedIn(await api.session())
        })
      }}
    >
      <p>
        {backup
          ? 'Enter one of the backup codes you saved when you set up two-factor sign-in. Each works once.'
          : 'Enter the 6-digit code your authenticator app shows for Pathlight.'}
      </p>
      <FormError error={verify.error?.field('code') ? undefined : verify.error} />
      <Field label={backup ? 'Backup code' : 'Authentication code'} errors={verify.error?.field('code')}>
        {(control) =>
          backup ? (
            <input
              {...control}
              key="backup"
              type="text"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              required
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          ) : (
            <input
              {...control}
              key="totp"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\s*(\d\s*){6}"
              title="6 digits"
              required
              maxLength={12}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          )
        }
      </Field>
      <button type="submit" className="button button-primary button-wide" disabled={verify.busy}>
        {verify.busy ? 'Checking…' : 'Verify'}
      </button>
      <p className="auth-switch">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setBackup(!backup)
            setCode('')
            verify.clear()
          }}
        >
          {backup ? 'Use your authenticator app instead' : 'Use a backup code instead'}
        </button>
        {' · '}
        <button type="button" className="link-button" onClick={onStartOver}>
          Start over
        </button>
      </p>
    </form>
  )
}
