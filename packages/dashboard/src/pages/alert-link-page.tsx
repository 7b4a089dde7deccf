/**
 * The page an alert mail's link opens, signed in or not: it names the address, the site and the alert
 * rule, and confirms the subscription or unsubscribes on a button press (a mail scanner that opens the
 * link changes nothing). The token of the link is the only credential.
 */
import type { AlertSubscription } from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { client } from '../api/contract-client'
import { AuthLayout } from '../components/auth-layout'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'

/** `action`: what the link is for, `confirm` or `unsubscribe`. */
export function AlertLinkPage({ action, token }: { action: 'confirm' | 'unsubscribe'; token: string }) {
  const subscription = useResource(`alert-link:${token}`, () =>
    client(endpoints.alertSubscription, { params: { token } }),
  )
  const [done, setDone] = useState<AlertSubscription>()
  const run = useAction()
  const current = done ?? subscription.data

  return (
    <AuthLayout>
      <h1>{action === 'confirm' ? 'Confirm the alert e-mails' : 'Unsubscribe from the alert e-mails'}</h1>
      <FormError error={subscription.error ?? run.error} />
      {subscription.loading && !current && <Loading />}
      {current && (
        <>
          <p>
            The mails of the Pathlight alert rule <strong>{current.ruleName}</strong> of{' '}
            <strong>{current.siteDomain}</strong> to <strong>{current.email}</strong>
            {current.status === 'active' && ' are on: this address gets them.'}
            {current.status === 'pending' && ' wait for this address to confirm.'}
            {current.status === 'unsubscribed' && ' are stopped: this address gets no more of them.'}
          </p>
          {action === 'confirm' && current.status === 'pending' && (
            <button
              type="button"
              className="button button-primary"
              disabled={run.busy}
              onClick={() =>
                void run.run(async () =>
                  setDone(await client(endpoints.confirmAlertSubscription, { params: { token } })),
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
                  setDone(await client(endpoints.unsubscribeAlert, { params: { token } })),
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
