/**
 * Change the signed-in user's password (`PUT /api/user/password`): the current one, the new one twice
 * (checked here to match and, by the browser, to be 8 to 256 characters). The server signs out every
 * other session of the user and words its refusals (wrong current password under its field; too many
 * wrong attempts as a message with the wait).
 */
import { useRef, useState } from 'react'
import { api } from '../api/api'
import { useAction } from '../lib/use-action'
import { Field } from './field'
import { FormError } from './form-error'

const MISMATCH = ['The new passwords do not match']

/**
 * The password section of the account page.
 * @param email the user's email, for password managers (a hidden username field)
 * @param onChanged called after a change (other sessions were signed out)
 */
export function PasswordCard({ email, onChanged }: { email: string; onChanged: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const [changed, setChanged] = useState(false)
  const change = useAction()
  const confirmationRef = useRef<HTMLInputElement>(null)

  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form
        className="password-form"
        onSubmit={(event) => {
          event.preventDefault()
          setChanged(false)
          if (newPassword !== confirmation) {
            change.clear()
            setMismatch(true)
            confirmationRef.current?.focus()
            return
          }
          setMismatch(false)
          void change.run(async () => {
            await api.changePassword(currentPassword, newPassword)
            setCurrentPassword('')
            setNewPassword('')
            setConfirmation('')
            setChanged(true)
            onChanged()
          })
        }}
      >
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <FormError error={change.error} />
        <Field label="Current password" errors={change.error?.field('currentPassword')}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              maxLength={256}
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label="New password" hint="At least 8 characters." errors={change.error?.field('newPassword')}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              maxLength={256}
              value={newPassword}
              onChange={(e) => setNewPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label="Confirm new password" errors={mismatch ? MISMATCH : undefined}>
          {(control) => (
            <input
              {...control}
              ref={confirmationRef}
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              maxLength={256}
              value={confirmation}
              onChange={(e) => {
                setConfirmation(e.target.value)
                setMismatch(false)
              }}
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={change.busy}>
            {change.busy ? 'Changing…' : 'Change password'}
          </button>
          <span role="status" className="saved">
            {changed ? 'Password changed; your other sessions were signed out.' : ''}
          </span>
        </div>
      </form>
    </section>
  )
}
