/**
 * Where the signed-in user is signed in (`GET /api/user/sessions`): each session's browser and system
 * (summarised from its user agent), address, sign-in and last refresh, this browser's marked. Other
 * sessions can be revoked one by one or all at once; this one is not offered (Sign out does that).
 */
import type { OwnSession } from '@pathlight/protocol'
import { api } from '../api/api'
import { ApiError } from '../api/api-error'
import { formatDateTime } from '../lib/format'
import { useAction } from '../lib/use-action'
import type { Resource } from '../lib/use-resource'
import { describeUserAgent } from '../lib/user-agent'
import { ConfirmButton } from './confirm-button'
import { FormError } from './form-error'
import { Loading } from './loading'

/** The sessions section of the account page over the loaded `sessions`. */
export function SessionsCard({ sessions }: { sessions: Resource<OwnSession[]> }) {
  const revoke = useAction()
  const others = sessions.data?.filter((s) => !s.current) ?? []

  /** Sign out one session; one already gone (404) is what was wanted. */
  const signOut = async (id: string) => {
    try {
      await api.revokeSession(id)
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error
    }
    sessions.setData((list) => (list ?? []).filter((s) => s.id !== id))
  }

  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p>
        The browsers where you are signed in. Revoke any you do not recognise, then change your password.
        “Last active” is updated at most once a day.
      </p>
      <FormError error={sessions.error} />
      <FormError error={revoke.error} />
      {sessions.loading && !sessions.data && <Loading />}
      {sessions.data && sessions.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Your sessions</caption>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">IP address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td>
                    <span title={session.userAgent ?? undefined}>{describeUserAgent(session.userAgent)}</span>
                    {session.current && <span className="badge">This session</span>}
                  </td>
                  <td>{session.ipAddress ?? 'unknown'}</td>
                  <td>{formatDateTime(session.createdAt)}</td>
                  <td>{formatDateTime(session.updatedAt)}</td>
                  <td className="actions">
                    {!session.current && (
                      <ConfirmButton
                        label="Revoke"
                        question="Sign this session out? That browser will have to sign in again."
                        onConfirm={() => revoke.run(() => signOut(session.id))}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {others.length > 0 && (
        <ConfirmButton
          label="Sign out other sessions"
          question={
            others.length === 1
              ? 'Sign out the other session?'
              : `Sign out the ${others.length} other sessions?`
          }
          confirmLabel="Sign out"
          onConfirm={() =>
            revoke.run(async () => {
              for (const session of others) await signOut(session.id)
            })
          }
        />
      )}
    </section>
  )
}
