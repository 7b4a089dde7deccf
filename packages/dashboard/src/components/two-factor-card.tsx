/**
 * Two-factor sign-in on the account page. Off: the password starts an enrolment, which shows the
 * authenticator URI as a QR code, its secret as text (for apps that cannot scan), and the backup
 * codes (shown this once), then asks for a first code: only a right one turns two-factor sign-in on.
 * On: the password turns it off. Whether it is on is read from the session (`twoFactorEnabled`).
 */
import { useState } from 'react'
import { api, type TwoFactorEnrolment } from '../api/api'
import { totpSecretOf } from '../lib/totp-uri'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { CopyButton } from './copy-button'
import { Field } from './field'
import { FormError } from './form-error'
import { Loading } from './loading'
import { QrCode } from './qr-code'

/**
 * The two-factor section of the account page for the user `userId` (`email` for password managers).
 * @param onChanged called after turning it on or off (the server replaced this browser's session)
 */
export function TwoFactorCard({
  userId,
  email,
  onChanged,
}: {
  userId: string
  email: string
  onChanged: () => void
}) {
  const status = useResource(
    `two-factor:${userId}`,
    async () => (await api.session())?.user.twoFactorEnabled === true,
  )
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment>()
  const [changed, setChanged] = useState<'on' | 'off'>()

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <FormError error={status.error} />
      {status.data === undefined && !status.error && <Loading />}
      {status.data === true && (
        <>
          <p>
            <strong>On.</strong> Signing in asks for a code from your authenticator app, or one of your backup
            codes, after your password.
          </p>
          {changed === 'on' && (
            <p role="status" className="saved">
              Two-factor sign-in is on.
            </p>
          )}
          <PasswordForm
            email={email}
            submitLabel="Turn off two-factor sign-in"
            busyLabel="Turning off…"
            danger
            onSubmit={async (password) => {
              await api.disableTwoFactor(password)
              setChanged('off')
              status.setData(() => false)
              onChanged()
            }}
          />
        </>
      )}
      {status.data === false && enrolment && (
        <EnrolmentSteps
          enrolment={enrolment}
          onConfirmed={() => {
            setEnrolment(undefined)
            setChanged('on')
            status.setData(() => true)
            onChanged()
          }}
          onCancel={() => setEnrolment(undefined)}
        />
      )}
      {status.data === false && !enrolment && (
        <>
          <p>
            <strong>Off.</strong> Add a second step to signing in: a code from an authenticator app on your
            phone (such as Google Authenticator, 1Password or Aegis), so that your password alone is not
            enough.
          </p>
          {changed === 'off' && (
            <p role="status" className="saved">
              Two-factor sign-in is off.
            </p>
          )}
          <PasswordForm
            email={email}
            submitLabel="Set up two-factor sign-in"
            busyLabel="Starting…"
            onSubmit={async (password) => {
              setEnrolment(await api.enableTwoFactor(password))
              setChanged(undefined)
            }}
          />
        </>
      )}
    </section>
  )
}

/** The current password and one button; the server's refusal shows under the field. */
function PasswordForm({
  email,
  submitLabel,
  busyLabel,
  danger = false,
  onSubmit,
}: {
  email: string
  submitLabel: string
  busyLabel: string
  danger?: boolean
  onSubmit: (password: string) => Promise<void>
}) {
  const [password, setPassword] = useState('')
  const action = useAction()
  return (
    <form
      className="password-form"
      onSubmit={(event) => {
        event.preventDefault()
        void action.run(async () => {
          await onSubmit(password)
          setPassword('')
        })
      }}
    >
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormError error={action.error?.field('password') ? undefined : action.error} />
      <Field label="Your password" errors={action.error?.field('password')}>
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            required
            maxLength={256}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <div className="form-actions">
        <button
          type="submit"
          className={danger ? 'button button-danger' : 'button button-primary'}
          disabled={action.busy}
        >
          {action.busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  )
}

/** Scan (or type the secret), keep the backup codes, confirm with a first code. */
function EnrolmentSteps({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TwoFactorEnrolment
  onConfirmed: () => void
  onCancel: () => void
}) {
  const [code, setCode] = useState('')
  const confirm = useAction()
  const secret = totpSecretOf(enrolment.totpURI) ?? ''
  const codes = enrolment.backupCodes.join('\n')
  return (
    <div className="two-factor-enrolment">
      <ol className="two-factor-steps">
        <li>
          <p>Scan this QR code with your authenticator app.</p>
          <QrCode text={enrolment.totpURI} label="QR code for your authenticator app" />
          <p>Or enter this secret in the app (time-based, 6 digits):</p>
          <div className="secret-row">
            <code className="secret-value totp-secret">{secret}</code>
            <CopyButton text={secret.replace(/ /g, '')} />
          </div>
        </li>
        <li>
          <section className="notice notice-secret" aria-label="Backup codes">
            <p>
              <strong>Backup codes.</strong> Each signs you in once if you lose your phone. Save them
              somewhere safe now: they will not be shown again.
            </p>
            <ul className="backup-codes">
              {enrolment.backupCodes.map((backupCode) => (
                <li key={backupCode}>
                  <code>{backupCode}</code>
                </li>
              ))}
            </ul>
            <CopyButton text={codes} label="Copy all codes" />
          </section>
        </li>
        <li>
          <form
            className="password-form"
            onSubmit={(event) => {
              event.preventDefault()
              void confirm.run(async () => {
                await api.verifyTotp(code.replace(/\s+/g, ''))
                onConfirmed()
              })
            }}
          >
            <p>Enter the code the app shows now to turn two-factor sign-in on.</p>
            <FormError error={confirm.error?.field('code') ? undefined : confirm.error} />
            <Field label="Code from your app" errors={confirm.error?.field('code')}>
              {(control) => (
                <input
                  {...control}
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
              )}
            </Field>
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={confirm.busy}>
                {confirm.busy ? 'Checking…' : 'Turn on'}
              </button>
              <button type="button" className="button button-secondary" onClick={onCancel}>
                Cancel
              </button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  )
}
