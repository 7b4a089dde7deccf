/**
 * A site's scheduled e-mail reports in its settings: the list (recipients and their state, the last
 * period sent), and for admins and owners: schedule one (addresses, weekly or monthly, in the browser's
 * time zone), send the last full period now, delete. Addresses outside the organization confirm from a
 * mailed link before they get reports. Without e-mail on the server (SMTP_URL unset) its refusal is
 * shown as is. Every call goes through `client()` on the contracts' addresses.
 */
import type { EmailReport, EmailReportFrequency } from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { useState } from 'react'
import { client } from '../api/contract-client'
import { listFieldErrors } from '../lib/list-field-errors'
import { parseList } from '../lib/lists'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { ConfirmButton } from './confirm-button'
import { Field } from './field'
import { FormError } from './form-error'
import { Loading } from './loading'

const frequencyLabels: Record<EmailReportFrequency, string> = {
  weekly: 'Weekly (Monday to Sunday)',
  monthly: 'Monthly',
}

const statusLabels: Record<EmailReport['recipients'][number]['status'], string> = {
  pending: 'waits for confirmation',
  active: 'active',
  unsubscribed: 'unsubscribed',
}

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/** The e-mail reports card of the site settings. */
export function EmailReportsCard({ siteId, canAdmin }: { siteId: number; canAdmin: boolean }) {
  const [mailConfigured, setMailConfigured] = useState(true)
  const list = useResource(`email-reports:${siteId}`, async () => {
    const answer = await client(endpoints.listEmailReports, { params: { siteId } })
    setMailConfigured(answer.meta.mailConfigured)
    return answer.data
  })
  const [recipientsText, setRecipientsText] = useState('')
  const [frequency, setFrequency] = useState<EmailReportFrequency>('weekly')
  const create = useAction()
  const send = useAction()
  const [sentNote, setSentNote] = useState<string>()

  const replace = (report: EmailReport) =>
    list.setData((current) => (current ?? []).map((r) => (r.id === report.id ? report : r)))

  return (
    <section className="card" aria-labelledby="email-reports-title" data-testid="email-reports">
      <h2 id="email-reports-title">E-mail reports</h2>
      <p>
        Visitors, pageviews, bounce rate and visit duration of the last full week or month, with the change
        against the period before, the top pages, sources and countries, and goal conversions, mailed to the
        addresses below. Addresses outside this organization get a link to confirm first; every report has an
        unsubscribe link.
      </p>
      {!mailConfigured && (
        <p className="notice">
          E-mail is not set up on this server (<code>SMTP_URL</code>): reports can be neither scheduled nor
          sent until the operator sets it.
        </p>
      )}
      <FormError error={list.error ?? send.error} />
      {sentNote && <p role="status">{sentNote}</p>}
      {list.loading && list.data === undefined ? (
        <Loading />
      ) : (list.data ?? []).length === 0 ? (
        <p className="muted">No e-mail reports yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">E-mail reports</caption>
            <thead>
              <tr>
                <th scope="col">Frequency</th>
                <th scope="col">Recipients</th>
                <th scope="col">Last sent</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(list.data ?? []).map((report) => (
                <tr key={report.id}>
                  <td>
                    {frequencyLabels[report.frequency]} <span className="muted">{report.timeZone}</span>
                  </td>
                  <td>
                    {report.recipients.map((r) => (
                      <div key={r.email}>
                        {r.email}{' '}
                        {r.status !== 'active' && <span className="badge">{statusLabels[r.status]}</span>}
                      </div>
                    ))}
                  </td>
                  <td>
                    {report.lastPeriod
                      ? `${report.lastPeriod.startDate} to ${report.lastPeriod.endDate}`
                      : 'not yet'}
                  </td>
                  <td className="actions">
                    {canAdmin && mailConfigured && (
                      <>
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          disabled={send.busy}
                          onClick={() => {
                            setSentNote(undefined)
                            void send.run(async () => {
                              const answer = await client(endpoints.sendEmailReport, {
                                params: { siteId, id: report.id },
                              })
                              setSentNote(
                                answer.sent.length === 0
                                  ? 'No active recipient: nothing was sent.'
                                  : `Sent ${answer.period.startDate} to ${answer.period.endDate} to ${answer.sent.join(', ')}.`,
                              )
                              replace({ ...report, lastPeriod: answer.period })
                            })
                          }}
                        >
                          Send now
                        </button>{' '}
                        <ConfirmButton
                          label="Delete"
                          question="Stop and delete this report?"
                          onConfirm={async () => {
                            await client(endpoints.deleteEmailReport, { params: { siteId, id: report.id } })
                            list.setData((current) => (current ?? []).filter((r) => r.id !== report.id))
                          }}
                        />
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canAdmin && mailConfigured && (
        <form
          className="subform"
          aria-label="New e-mail report"
          onSubmit={(event) => {
            event.preventDefault()
            void create
              .run(async () => {
                const { data } = await client(endpoints.createEmailReport, {
                  params: { siteId },
                  body: { recipients: parseList(recipientsText), frequency, timeZone: browserTimeZone() },
                })
                list.setData((current) => [...(current ?? []), data])
              })
              .then((ok) => {
                if (ok) setRecipientsText('')
              })
          }}
        >
          <FormError error={create.error} />
          <Field
            label="Recipients"
            hint="One address per line, at most 20."
            errors={listFieldErrors(create.error, 'recipients')}
          >
            {(control) => (
              <textarea
                {...control}
                rows={2}
                required
                value={recipientsText}
                onChange={(e) => setRecipientsText(e.target.value)}
              />
            )}
          </Field>
          <Field label="Frequency" errors={create.error?.field('frequency')}>
            {(control) => (
              <select
                {...control}
                value={frequency}
                onChange={(e) => setFrequency(e.target.value === 'monthly' ? 'monthly' : 'weekly')}
              >
                <option value="weekly">{frequencyLabels.weekly}</option>
                <option value="monthly">{frequencyLabels.monthly}</option>
              </select>
            )}
          </Field>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={create.busy}>
              Add e-mail report
            </button>
          </div>
        </form>
      )}
    </section>
  )
}
