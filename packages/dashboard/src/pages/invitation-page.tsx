/**
 * Where an invitation's link leads (`/invitations/:token`): which organization invites, with which
 * role. Signed in with the invited address, accept (then open the organization) or decline; signed
 * out, sign in or sign up first (and come back here); anyone holding the link may decline.
 */
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { client } from '../api/contract-client'
import { AuthLayout } from '../components/auth-layout'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PageHeading } from '../components/page-heading'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { Link } from '../router/link'
import { navigate } from '../router/navigation'
import { routePath } from '../router/routes'

/**
 * @param signedInAs the address of the signed-in account; undefined when signed out. After accepting,
 *   the page opens the organization (whose page loads the organizations afresh).
 */
export function InvitationPage({ token, signedInAs }: { token: string; signedInAs?: string }) {
  const offer = useResource(`invitation:${token}`, () =>
    client(endpoints.getInvitation, { params: { token } }).then((answer) => answer.data),
  )
  const action = useAction()
  const [declined, setDeclined] = useState(false)
  const here = routePath({ name: 'invitation', token })

  const body = () => {
    if (declined) return <p role="status">You declined the invitation. The link no longer works.</p>
    if (offer.error) return <FormError error={offer.error} title="This invitation cannot be used" />
    if (!offer.data) return <Loading />
    const { organization, email, role, invitedBy, expiresAt } = offer.data
    const mine = signedInAs?.toLowerCase() === email
    return (
      <>
        <p>
          {invitedBy} invited <strong>{email}</strong> to the organization{' '}
          <strong>{organization.name}</strong> as {role}. The invitation works until{' '}
          {formatDateTime(expiresAt)}.
        </p>
        <FormError error={action.error} />
        {signedInAs === undefined && (
          <p>
            To accept, <Link to={routePath({ name: 'signIn', next: here })}>sign in</Link> or{' '}
            <Link to={routePath({ name: 'signUp', next: here })}>create an account</Link> with {email}.
          </p>
        )}
        {signedInAs !== undefined && !mine && (
          <p role="alert">
            You are signed in as {signedInAs}. Sign out and sign in with {email} to accept.
          </p>
        )}
        <div className="row">
          {mine && (
            <button
              type="button"
              className="button button-primary"
              disabled={action.busy}
              onClick={() =>
                void action.run(async () => {
                  const joined = await client(endpoints.acceptInvitation, { params: { token } })
                  navigate(routePath({ name: 'organization', organizationId: joined.data.organizationId }))
                })
              }
            >
              Join {organization.name}
            </button>
          )}
          <button
            type="button"
            className="button"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                await client(endpoints.declineInvitation, { params: { token } })
                setDeclined(true)
              })
            }
          >
            Decline
          </button>
        </div>
      </>
    )
  }

  return (
    <AuthLayout>
      <PageHeading title="Invitation" />
      {body()}
    </AuthLayout>
  )
}
