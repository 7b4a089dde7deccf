/**
 * The page a report mail's link opens, signed in or not: it names the address, the site and the
 * report, and confirms the subscription or unsubscribes on a button press (a mail scanner that opens
 * the link changes nothing). The token of the link is the only credential.
 */
import type { EmailReportSubscription } from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { client } from '../api/contract-client'
import { AuthLayout } from '../components/auth-layout'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'

/** `action`: what the link is for, `confirm` or `unsubscribe`. */
export function EmailReportLinkPage({ action, token }: { action: 'confirm' | 'unsubscribe'; token: string }) {
  const subscription = useResource(`email-report-link:${token}`, () =>
    client(endpoints.emailReportSubscription, { params: { token } }),
  )
  const [done, setDone] = useState<EmailReportSubscription>()
  const run = useAction()
  const current = done ?? subscription.data

  return (
    <AuthLayout>
      <h1>{action === 'confirm' ? 'Confirm the e-mail report' : 'Unsubscribe from the e-mail report'}</h1>
      <FormError error={subscription.error ?? run.error} />
      {subscription.loading && !current && <Loading />}
      {current && (
        <>
          <p>
            The {current.frequency} Pathlight report of <strong>{current.siteDomain}</strong> to{' '}
            <strong>{current.email}</strong>
            {current.status === 'active' && ' is active: this address gets it.'}
            {current.status === 'pending' && ' waits for this address to confirm.'}
            {current.status === 'unsubscribed' && ' is stopped: this address gets no more of it.'}
          </p>
          {action === 'confirm' && current.status === 'pending' && (
            <button
              type="button"
              className="button button-primary"
              disabled={run.busy}
              onClick={() =>
                void run.run(async () =>
                  setDone(await client(endpoints.confirmEmailReport, { params: { token } })),
                )
              }
            >
              Confirm
            </button>
          )}
          {action === 'unsubscribe' && current.status !== 'unsubscribed' && (
            <button
              type="button"
              className="button button-primary"
              disabled={run.busy}
              onClick={() =>
                void run.run(async () =>
                  setDone(await client(endpoints.unsubscribeEmailReport, { params: { token } })),
                )
              }
            >
              Unsubscribe
            </button>
          )}
        </>
      )}
    </AuthLayout>
  )
}
