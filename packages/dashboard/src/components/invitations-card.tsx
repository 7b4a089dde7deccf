/**
 * An organization's invitations, for its admins and owners: invite an address with a role (only
 * owners invite owners), see the pending invitations, revoke one. Without e-mail on the instance the
 * server refuses to invite: the card says so up front (`GET /api/mail/status`) and offers no Invite.
 */
import type { Role } from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { client } from '../api/contract-client'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { MAIL_NOT_CONFIGURED, useMailConfigured } from '../lib/use-mail-status'
import { useResource } from '../lib/use-resource'
import { ConfirmButton } from './confirm-button'
import { Field } from './field'
import { FormError } from './form-error'

const roles: Role[] = ['owner', 'admin', 'member']

/** The invite form and the pending invitations of `organizationId`. */
export function InvitationsCard({
  organizationId,
  canInviteOwners,
}: {
  organizationId: string
  canInviteOwners: boolean
}) {
  const pending = useResource(`invitations:${organizationId}`, () =>
    client(endpoints.listInvitations, { params: { organizationId } }).then((answer) => answer.data),
  )
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('member')
  const [sentTo, setSentTo] = useState<string>()
  const invite = useAction()
  const revoke = useAction()
  const noMail = useMailConfigured() === false
  return (
    <section className="card" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invite by e-mail</h2>
      <p className="hint">
        They get a link to join, valid 7 days; without an account yet, they sign up from it with this address.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setSentTo(undefined)
          void invite.run(async () => {
            const created = await client(endpoints.createInvitation, {
              params: { organizationId },
              body: { email, role },
            })
            pending.setData((list) => [
              created.data,
              ...(list ?? []).filter((i) => i.email !== created.data.email),
            ])
            setSentTo(created.data.email)
            setEmail('')
            setRole('member')
          })
        }}
      >
        {noMail && (
          <p className="notice" data-testid="mail-not-configured">
            {MAIL_NOT_CONFIGURED}. Invitations cannot be mailed: ask them to sign up, then add them below by
            their address.
          </p>
        )}
        {!noMail && <FormError error={invite.error} />}
        {!noMail && invite.error?.status === 503 && (
          <p className="hint">
            This instance sends no e-mail. Ask them to sign up, then add them below by their address.
          </p>
        )}
        {sentTo && <p role="status">Invitation sent to {sentTo}.</p>}
        <div className="row">
          <Field label="Address to invite" errors={invite.error?.field('email')}>
            {(control) => (
              <input
                {...control}
                type="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <Field label="Role to give" errors={invite.error?.field('role')}>
            {(control) => (
              <select {...control} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {roles
                  .filter((r) => canInviteOwners || r !== 'owner')
                  .map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
              </select>
            )}
          </Field>
          <button type="submit" className="button button-primary" disabled={invite.busy || noMail}>
            {invite.busy ? 'Inviting…' : 'Invite'}
          </button>
        </div>
      </form>
      <h3>Pending invitations</h3>
      <FormError error={pending.error ?? revoke.error} />
      {pending.data && pending.data.length === 0 && <p className="hint">None.</p>}
      {pending.data && pending.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pending.data.map((invitation) => (
                <tr key={invitation.id}>
                  <td>{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td>{formatDateTime(invitation.expiresAt)}</td>
                  <td className="actions">
                    <ConfirmButton
                      label="Revoke"
                      question={`Revoke the invitation of ${invitation.email}?`}
                      onConfirm={() =>
                        revoke.run(async () => {
                          await client(endpoints.revokeInvitation, {
                            params: { organizationId, invitationId: invitation.id },
                          })
                          pending.setData((list) => (list ?? []).filter((i) => i.id !== invitation.id))
                        })
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
