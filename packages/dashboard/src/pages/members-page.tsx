/**
 * An organization's members and their roles: list (everyone), invite by e-mail and add an existing
 * account, change a role, remove (admins and owners; only owners touch owners), leave. The server enforces every rule and its
 * messages, such as the last-owner rule, are shown as it words them.
 */
import type { Member, Role } from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { api } from '../api/api'
import { client } from '../api/contract-client'
import { AppShell } from '../components/app-shell'
import { ConfirmButton } from '../components/confirm-button'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { InvitationsCard } from '../components/invitations-card'
import { Loading } from '../components/loading'
import { PageHeading } from '../components/page-heading'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { navigate } from '../router/navigation'
import { isAdmin, useSession } from '../session'

const roles: Role[] = ['owner', 'admin', 'member']

/** The members of `organizationId`, with the actions the caller’s role allows. */
export function MembersPage({ organizationId }: { organizationId: string }) {
  const { user, roleIn, organizations, reloadOrganizations } = useSession()
  const members = useResource(`members:${organizationId}`, () => api.members(organizationId))
  const rowAction = useAction()
  const myRole = roleIn(organizationId)
  const organization = organizations?.find((o) => o.id === organizationId)
  /** Whether I may change or remove this member (the server has the last word). */
  const canManage = (member: Member) =>
    member.userId !== user.id && isAdmin(myRole) && (myRole === 'owner' || member.role !== 'owner')

  const changeRole = (member: Member, role: Role) =>
    rowAction.run(async () => {
      const updated = await api.changeRole(organizationId, member.userId, role)
      members.setData((list) => (list ?? []).map((m) => (m.userId === updated.userId ? updated : m)))
      if (member.userId === user.id) reloadOrganizations()
    })
  const remove = (member: Member) =>
    rowAction.run(async () => {
      if (member.userId === user.id) {
        await client(endpoints.leaveOrganization, { params: { organizationId } })
        reloadOrganizations()
        navigate('/')
        return
      }
      await api.removeMember(organizationId, member.userId)
      members.setData((list) => (list ?? []).filter((m) => m.userId !== member.userId))
    })

  return (
    <AppShell organizationId={organizationId} section="members">
      <PageHeading title="Members" documentTitle={`Members · ${organization?.name ?? 'Organization'}`} />
      <p className="lead">
        Owners manage everything, including other owners. Admins manage sites and members (except owners).
        Members read analytics.
      </p>
      <FormError error={members.error} />
      <FormError error={rowAction.error} />
      {members.loading && !members.data && <Loading />}
      {members.data && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">
              Members of {organization?.name ?? 'this organization'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((member) => {
                const self = member.userId === user.id
                const editable = canManage(member) || (self && isAdmin(myRole))
                return (
                  <tr key={member.userId}>
                    <td>
                      {member.name}
                      {self && <span className="badge">you</span>}
                    </td>
                    <td>{member.email}</td>
                    <td>
                      {editable ? (
                        <select
                          aria-label={`Role of ${member.name}`}
                          value={member.role}
                          disabled={rowAction.busy}
                          onChange={(e) => void changeRole(member, e.target.value as Role)}
                        >
                          {roles
                            .filter((r) => myRole === 'owner' || r !== 'owner')
                            .map((r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ))}
                        </select>
                      ) : (
                        member.role
                      )}
                    </td>
                    <td>{formatDateTime(member.joinedAt)}</td>
                    <td className="actions">
                      {self ? (
                        <ConfirmButton
                          label="Leave"
                          question="Leave this organization?"
                          onConfirm={() => remove(member)}
                        />
                      ) : (
                        canManage(member) && (
                          <ConfirmButton
                            label="Remove"
                            question={`Remove ${member.name}?`}
                            onConfirm={() => remove(member)}
                          />
                        )
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {isAdmin(myRole) && (
        <InvitationsCard organizationId={organizationId} canInviteOwners={myRole === 'owner'} />
      )}
      {isAdmin(myRole) && (
        <AddMemberForm
          organizationId={organizationId}
          canAddOwners={myRole === 'owner'}
          onAdded={(member) => members.setData((list) => [...(list ?? []), member])}
        />
      )}
    </AppShell>
  )
}

function AddMemberForm({
  organizationId,
  canAddOwners,
  onAdded,
}: {
  organizationId: string
  canAddOwners: boolean
  onAdded: (member: Member) => void
}) {
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<Role>('member')
  const action = useAction()
  return (
    <form
      className="card"
      onSubmit={(event) => {
        event.preventDefault()
        void action.run(async () => {
          onAdded(await api.addMember(organizationId, { email, role }))
          setEmail('')
          setRole('member')
        })
      }}
    >
      <h2>Add an existing account</h2>
      <p className="hint">
        Someone who already has an account on this Pathlight joins at once (and gets an e-mail saying so, when
        this instance sends e-mail).
      </p>
      <FormError error={action.error} />
      <div className="row">
        <Field label="Email" errors={action.error?.field('email')}>
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
        <Field label="Role" errors={action.error?.field('role')}>
          {(control) => (
            <select {...control} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles
                .filter((r) => canAddOwners || r !== 'owner')
                .map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
            </select>
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={action.busy}>
          Add member
        </button>
      </div>
    </form>
  )
}
