/**
 * Create or edit an alert rule: a metric over a trailing window compared with a threshold; for the
 * crawler metrics also a category (or one agent), and for new crawlers only how many.
 */
import type { AlertCrawlerCategory, AlertMetric, AlertRuleInput } from '@pathlight/protocol'
import { alertCrawlerCategories, alertMetrics } from '@pathlight/protocol/enums'
import { useState } from 'react'
import type { ApiError } from '../api/api-error'
import { crawlerCategoryLabels, metricLabels } from '../lib/alert-text'
import { listFieldErrors } from '../lib/list-field-errors'
import { formatList, parseList } from '../lib/lists'
import { CheckboxField } from './checkbox-field'
import { Field } from './field'
import { FormError } from './form-error'

/** The metrics the form offers: `goal_conversions` also needs a goal, which only the API sets. */
const formMetrics = alertMetrics.filter((metric) => metric !== 'goal_conversions')

export const newAlertRule: AlertRuleInput = {
  name: '',
  metric: 'pageviews',
  eventName: null,
  windowMinutes: 60,
  comparison: 'above',
  threshold: 100,
  relative: false,
  enabled: true,
  emailRecipients: [],
  crawlerCategory: null,
  crawlerAgent: null,
}

export interface AlertFormProps {
  initial: AlertRuleInput
  /** Whether the server can send mail (SMTP_URL): without it the form says so next to the recipients. */
  mailConfigured: boolean
  submitLabel: string
  busy: boolean
  error: ApiError | undefined
  onSubmit: (input: AlertRuleInput) => void
  onCancel?: () => void
}

/**
 * The rule form; `onSubmit` gets the rule with numbers parsed, `eventName` null unless custom events,
 * the crawler fields null unless a crawler metric (a new-crawler rule: above, never relative).
 */
export function AlertForm({
  initial,
  mailConfigured,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: AlertFormProps) {
  const [rule, setRule] = useState(initial)
  // Numbers stay text while typed, so an emptied field is not silently 0; the server validates them.
  const [windowText, setWindowText] = useState(String(initial.windowMinutes))
  const [thresholdText, setThresholdText] = useState(String(initial.threshold))
  const [recipientsText, setRecipientsText] = useState(formatList(initial.emailRecipients))
  const set = <K extends keyof AlertRuleInput>(key: K, value: AlertRuleInput[K]) =>
    setRule((current) => ({ ...current, [key]: value }))
  const crawler = rule.metric === 'crawler_new_agents' || rule.metric === 'crawler_requests'
  const newAgents = rule.metric === 'crawler_new_agents'
  const agent =
    rule.metric === 'crawler_requests' && rule.crawlerAgent?.trim() ? rule.crawlerAgent.trim() : null
  return (
    <form
      className="alert-form"
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit({
          ...rule,
          eventName: rule.metric === 'custom_events' && rule.eventName?.trim() ? rule.eventName.trim() : null,
          crawlerAgent: agent,
          crawlerCategory: crawler && agent === null ? (rule.crawlerCategory ?? null) : null,
          ...(newAgents ? { comparison: 'above' as const, relative: false } : {}),
          windowMinutes: Number(windowText),
          threshold: Number(thresholdText),
          emailRecipients: parseList(recipientsText),
        })
      }}
    >
      <FormError error={error} />
      <Field label="Name" errors={error?.field('name')}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={100}
            value={rule.name}
            onChange={(e) => set('name', e.target.value)}
          />
        )}
      </Field>
      <div className="row">
        <Field label="Metric" errors={error?.field('metric')}>
          {(control) => (
            <select
              {...control}
              value={rule.metric}
              onChange={(e) => {
                const metric = e.target.value as AlertMetric
                // A new crawler rule counts agents: one is the usual threshold.
                if (metric === 'crawler_new_agents') setThresholdText('1')
                set('metric', metric)
              }}
            >
              {formMetrics.map((m) => (
                <option key={m} value={m}>
                  {metricLabels[m]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {rule.metric === 'custom_events' && (
          <Field
            label="Event name (optional)"
            hint="Empty: every custom event."
            errors={error?.field('eventName')}
          >
            {(control) => (
              <input
                {...control}
                value={rule.eventName ?? ''}
                onChange={(e) => set('eventName', e.target.value)}
              />
            )}
          </Field>
        )}
        {crawler && (
          <Field label="Crawler category" errors={error?.field('crawlerCategory')}>
            {(control) => (
              <select
                {...control}
                value={rule.crawlerCategory ?? ''}
                disabled={agent !== null}
                onChange={(e) =>
                  set(
                    'crawlerCategory',
                    e.target.value === '' ? null : (e.target.value as AlertCrawlerCategory),
                  )
                }
              >
                <option value="">Every category</option>
                {alertCrawlerCategories.map((category) => (
                  <option key={category} value={category}>
                    {crawlerCategoryLabels[category]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {rule.metric === 'crawler_requests' && (
          <Field
            label="Agent (optional)"
            hint="One agent's name as the Crawlers page shows it, e.g. GPTBot; instead of a category."
            errors={error?.field('crawlerAgent')}
          >
            {(control) => (
              <input
                {...control}
                value={rule.crawlerAgent ?? ''}
                onChange={(e) => set('crawlerAgent', e.target.value)}
              />
            )}
          </Field>
        )}
      </div>
      {newAgents && (
        <Field
          label="New crawlers (at least)"
          hint="Fires once for each agent never seen on the site before (from its access logs); the agents there when the rule is first evaluated count as seen."
          errors={error?.field('threshold')}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              step="1"
              min="1"
              required
              value={thresholdText}
              onChange={(e) => setThresholdText(e.target.value)}
            />
          )}
        </Field>
      )}
      {!newAgents && (
        <div className="row">
          <Field label="Comparison" errors={error?.field('comparison')}>
            {(control) => (
              <select
                {...control}
                value={rule.comparison}
                onChange={(e) => set('comparison', e.target.value === 'below' ? 'below' : 'above')}
              >
                <option value="above">{crawler ? 'at least' : 'above'}</option>
                <option value="below">{crawler ? 'at most' : 'below'}</option>
              </select>
            )}
          </Field>
          <Field
            label={rule.relative ? 'Threshold (percent change)' : 'Threshold'}
            errors={error?.field('threshold')}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                step="any"
                required
                value={thresholdText}
                onChange={(e) => setThresholdText(e.target.value)}
              />
            )}
          </Field>
          <Field label="Window (minutes)" hint="5 minutes to 7 days." errors={error?.field('windowMinutes')}>
            {(control) => (
              <input
                {...control}
                type="number"
                step="1"
                required
                value={windowText}
                onChange={(e) => setWindowText(e.target.value)}
              />
            )}
          </Field>
        </div>
      )}
      {!newAgents && (
        <CheckboxField
          label="Compare with the previous window"
          description={
            crawler
              ? 'The threshold is then a percent change, e.g. at least 100 for doubled requests.'
              : 'The threshold is then a percent change, e.g. below -50 for a drop by half.'
          }
          checked={rule.relative}
          errors={error?.field('relative')}
          onChange={(on) => set('relative', on)}
        />
      )}
      {!mailConfigured && (
        <p className="notice">
          E-mail is not set up on this server (<code>SMTP_URL</code>): the rule is saved and calls its
          webhooks, but its e-mail recipients get nothing until the operator sets it.
        </p>
      )}
      <Field
        label="E-mail recipients (optional)"
        hint="One address per line, at most 20: each gets a mail when the rule fires, besides the site's webhooks. Members of this organization get it at once; other addresses are first mailed a link to confirm."
        errors={listFieldErrors(error, 'emailRecipients')}
      >
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={recipientsText}
            onChange={(e) => setRecipientsText(e.target.value)}
          />
        )}
      </Field>
      <CheckboxField
        label="Enabled"
        checked={rule.enabled}
        errors={error?.field('enabled')}
        onChange={(on) => set('enabled', on)}
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button button-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}
