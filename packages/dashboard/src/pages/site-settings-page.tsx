/**
 * A site's settings: its name and domain, every configuration field of the spec (one form, only changed
 * fields are sent) including how long its events are kept and the session replay settings,
 * A/B experiments, scheduled e-mail reports, the private link, and deleting the site. Members see the
 * settings read-only. Validation is the server's; its messages appear next to the field they concern.
 */
import type { Site, SiteConfig } from '@pathlight/protocol'
import { useState } from 'react'
import { api } from '../api/api'
import { CheckboxField } from '../components/checkbox-field'
import { ConfirmButton } from '../components/confirm-button'
import { CopyButton } from '../components/copy-button'
import { DataTransferCard } from '../components/data-transfer-card'
import { EmailReportsCard } from '../components/email-reports-card'
import { ExperimentsCard } from '../components/experiments-card'
import { Field } from '../components/field'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { SiteDetailsForm } from '../components/site-details-form'
import { changedConfig, savedText } from '../lib/config-diff'
import { formatList, parseList } from '../lib/lists'
import { percentText, rateFromPercentText, sampleRateErrors } from '../lib/replay-settings'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { navigate } from '../router/navigation'
import { routePath } from '../router/routes'
import type { SiteContext } from './site-scope'
import { type SwitchName, switchGroups } from './site-switch-groups'

/** Settings of the site in scope; `setSite` receives the switches the server saved. */
export function SiteSettingsPage({ site, canAdmin, setSite }: SiteContext) {
  const lists = useResource(`lists:${site.siteId}`, async () => {
    const [excludedIPs, excludedCountries] = await Promise.all([
      api.excludedIPs(site.siteId),
      api.excludedCountries(site.siteId),
    ])
    return { excludedIPs, excludedCountries }
  })
  return (
    <div className="stack">
      {!canAdmin && (
        <p className="notice">You are a member of this organization: settings are read-only for you.</p>
      )}
      <SiteDetailsForm key={`details-${site.siteId}`} site={site} canAdmin={canAdmin} onSaved={setSite} />
      <FormError error={lists.error} />
      {lists.data ? (
        <ConfigForm
          key={site.siteId}
          site={site}
          lists={lists.data}
          canAdmin={canAdmin}
          onSaved={(config) => {
            setSite({
              ...site,
              ...switchesOf(config),
              retentionDays: config.retentionDays,
              replaySampleRate: config.replaySampleRate,
              replayRetentionDays: config.replayRetentionDays,
            })
            lists.setData(() => ({
              excludedIPs: config.excludedIPs,
              excludedCountries: config.excludedCountries,
            }))
          }}
        />
      ) : (
        lists.loading && <Loading />
      )}
      <ExperimentsCard key={`experiments-${site.siteId}`} siteId={site.siteId} canAdmin={canAdmin} />
      <EmailReportsCard key={`email-reports-${site.siteId}`} siteId={site.siteId} canAdmin={canAdmin} />
      <PrivateLink siteId={site.siteId} canAdmin={canAdmin} />
      <DataTransferCard key={`transfer-${site.siteId}`} siteId={site.siteId} canAdmin={canAdmin} />
      {canAdmin && <DangerZone site={site} />}
    </div>
  )
}

/** What this form edits: the whole configuration. */
type FormConfig = SiteConfig

const switchNames = switchGroups.flatMap((group) => group.switches.map((s) => s.name))

/** Every field of the form by its label, for the message after a save. */
const fieldLabels: Record<keyof FormConfig, string> = {
  ...(Object.fromEntries(
    switchGroups.flatMap((group) => group.switches.map((s) => [s.name, s.label])),
  ) as Record<SwitchName, string>),
  excludedIPs: 'Excluded IP addresses',
  excludedCountries: 'Excluded countries',
  retentionDays: 'Keep events for',
  replaySampleRate: 'Share of sessions recorded',
  replayRetentionDays: 'Keep recordings for',
}

/** The on/off fields of a site or a configuration. */
function switchesOf(source: Pick<SiteConfig, SwitchName>): Pick<SiteConfig, SwitchName> {
  return Object.fromEntries(switchNames.map((name) => [name, source[name]])) as Pick<SiteConfig, SwitchName>
}

function ConfigForm({
  site,
  lists,
  canAdmin,
  onSaved,
}: {
  site: Site
  lists: { excludedIPs: string[]; excludedCountries: string[] }
  canAdmin: boolean
  onSaved: (config: SiteConfig) => void
}) {
  const saved: FormConfig = {
    ...switchesOf(site),
    ...lists,
    retentionDays: site.retentionDays,
    replaySampleRate: site.replaySampleRate,
    replayRetentionDays: site.replayRetentionDays,
  }
  const [switches, setSwitches] = useState(() => switchesOf(saved))
  const [ipText, setIpText] = useState(() => formatList(lists.excludedIPs))
  const [countryText, setCountryText] = useState(() => formatList(lists.excludedCountries))
  const [retentionText, setRetentionText] = useState(() => formatRetention(site.retentionDays))
  const [sampleText, setSampleText] = useState(() => percentText(site.replaySampleRate))
  const [replayDaysText, setReplayDaysText] = useState(() => String(site.replayRetentionDays))
  const [result, setResult] = useState<string>()
  const action = useAction()

  const next: FormConfig = {
    ...switches,
    excludedIPs: parseList(ipText),
    excludedCountries: parseList(countryText),
    retentionDays: retentionText.trim() === '' ? null : Number(retentionText),
    replaySampleRate: rateFromPercentText(sampleText, saved.replaySampleRate),
    // '' is sent as null, which the server refuses naming the field (Number('') would be 0).
    replayRetentionDays: replayDaysText.trim() === '' ? Number.NaN : Number(replayDaysText),
  }
  const changes = changedConfig(saved, next)
  const dirty = Object.keys(changes).length > 0

  return (
    <form
      className="card"
      aria-labelledby="config-title"
      onSubmit={(event) => {
        event.preventDefault()
        setResult(undefined)
        void action.run(async () => {
          const sent = Object.keys(changes) as (keyof FormConfig)[]
          const answer = await api.updateConfig(site.siteId, changes)
          onSaved(answer.config)
          setSwitches(switchesOf(answer.config))
          setIpText(formatList(answer.config.excludedIPs))
          setCountryText(formatList(answer.config.excludedCountries))
          setRetentionText(formatRetention(answer.config.retentionDays))
          setSampleText(percentText(answer.config.replaySampleRate))
          setReplayDaysText(String(answer.config.replayRetentionDays))
          setResult(savedText(sent, fieldLabels))
        })
      }}
    >
      <h2 id="config-title">Configuration</h2>
      <fieldset disabled={!canAdmin} className="plain">
        {switchGroups.map((group) => (
          <fieldset key={group.title} className="group">
            <legend>{group.title}</legend>
            {group.switches.map((s) => (
              <CheckboxField
                key={s.name}
                label={s.label}
                description={s.description}
                checked={switches[s.name]}
                errors={action.error?.field(s.name)}
                onChange={(checked) => setSwitches((current) => ({ ...current, [s.name]: checked }))}
              />
            ))}
            {group.switches.some((s) => s.name === 'sessionReplay') && switches.sessionReplay && (
              <div className="replay-settings">
                <Field
                  label="Share of sessions recorded (%)"
                  hint="0 to 100; each session is in or out for its whole length. 0 records nothing."
                  errors={sampleRateErrors(action.error?.field('replaySampleRate'))}
                >
                  {(control) => (
                    <input
                      {...control}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={100}
                      step="any"
                      value={sampleText}
                      onChange={(e) => setSampleText(e.target.value)}
                    />
                  )}
                </Field>
                <Field
                  label="Keep recordings for (days)"
                  hint="1 to 365 days after they are recorded; then they are deleted."
                  errors={action.error?.field('replayRetentionDays')}
                >
                  {(control) => (
                    <input
                      {...control}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      max={365}
                      step={1}
                      value={replayDaysText}
                      onChange={(e) => setReplayDaysText(e.target.value)}
                    />
                  )}
                </Field>
              </div>
            )}
          </fieldset>
        ))}
        <fieldset className="group">
          <legend>Excluded traffic</legend>
          <p className="hint">Requests from these addresses or countries are not recorded.</p>
          <Field
            label="Excluded IP addresses"
            hint="One IP address or CIDR range per line, e.g. 203.0.113.7 or 10.0.0.0/8 (IPv6 too)."
            errors={action.error?.field('excludedIPs')}
          >
            {(control) => (
              <textarea
                {...control}
                rows={4}
                spellCheck={false}
                value={ipText}
                onChange={(e) => setIpText(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Excluded countries"
            hint="Two-letter country codes, one per line or separated by commas, e.g. DE, FR."
            errors={action.error?.field('excludedCountries')}
          >
            {(control) => (
              <textarea
                {...control}
                rows={2}
                spellCheck={false}
                autoCapitalize="characters"
                value={countryText}
                onChange={(e) => setCountryText(e.target.value)}
              />
            )}
          </Field>
        </fieldset>
        <fieldset className="group">
          <legend>Data retention</legend>
          <Field
            label="Keep events for (days)"
            hint="Whole days, 30 to 3650; older events are deleted once a day. Empty: the instance default (forever unless the operator set one)."
            errors={action.error?.field('retentionDays')}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={30}
                max={3650}
                step={1}
                value={retentionText}
                onChange={(e) => setRetentionText(e.target.value)}
              />
            )}
          </Field>
        </fieldset>
        <FormError error={action.error} />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={action.busy || !dirty}>
            {action.busy ? 'Saving…' : 'Save changes'}
          </button>
          <span role="status" className="saved">
            {!dirty && result ? result : dirty ? 'Unsaved changes' : ''}
          </span>
        </div>
      </fieldset>
    </form>
  )
}

/** A retention period as the form's text: empty for none. */
const formatRetention = (days: number | null): string => (days === null ? '' : String(days))

function PrivateLink({ siteId, canAdmin }: { siteId: number; canAdmin: boolean }) {
  const key = useResource(`private-link:${siteId}`, () => api.privateLinkKey(siteId))
  const action = useAction()
  const set = (change: 'generate_private_link_key' | 'revoke_private_link_key') =>
    action.run(async () => {
      const value = await api.setPrivateLink(siteId, change)
      key.setData(() => value)
    })
  return (
    <section className="card" aria-labelledby="private-link-title">
      <h2 id="private-link-title">Private link</h2>
      <p>
        A private link key lets someone read this site’s analytics without an account, and nothing else.
        Readers send it as the <code>X-Private-Key</code> header.
      </p>
      <FormError error={key.error ?? action.error} />
      {key.loading && key.data === undefined && <Loading />}
      {key.data === null && <p className="muted">No private link key.</p>}
      {key.data && (
        <div className="secret-row">
          <code className="secret-value">{key.data}</code>
          <CopyButton text={key.data} label="Copy key" />
        </div>
      )}
      {canAdmin && key.data !== undefined && (
        <div className="form-actions">
          {key.data === null ? (
            <button
              type="button"
              className="button button-secondary"
              disabled={action.busy}
              onClick={() => void set('generate_private_link_key')}
            >
              Generate a key
            </button>
          ) : (
            <>
              <ConfirmButton
                label="Generate a new key"
                question="The current key stops working. Continue?"
                confirmLabel="Replace key"
                onConfirm={() => set('generate_private_link_key')}
              />
              <ConfirmButton
                label="Revoke"
                question="Revoke the key? Readers lose access at once."
                confirmLabel="Revoke key"
                onConfirm={() => set('revoke_private_link_key')}
              />
            </>
          )}
        </div>
      )}
    </section>
  )
}

function DangerZone({ site }: { site: Site }) {
  const [typed, setTyped] = useState('')
  const action = useAction()
  return (
    <section className="card card-danger" aria-labelledby="danger-title">
      <h2 id="danger-title">Delete this site</h2>
      <p>
        Deletes <strong>{site.domain}</strong> with all its events, goals, webhooks, alerts and its private
        link. This cannot be undone.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          void action.run(async () => {
            await api.deleteSite(site.siteId)
            navigate(routePath({ name: 'organization', organizationId: site.organizationId }))
          })
        }}
      >
        <FormError error={action.error} />
        <Field label={`Type ${site.domain} to confirm`}>
          {(control) => (
            <input
              {...control}
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          )}
        </Field>
        <button
          type="submit"
          className="button button-danger"
          disabled={typed.trim() !== site.domain || action.busy}
        >
          Delete site and its data
        </button>
      </form>
    </section>
  )
}
