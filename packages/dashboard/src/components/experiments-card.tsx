/**
 * A site's A/B experiments in its settings: list, create, edit, delete (admins and owners; members
 * read). Each experiment has a key (matched against the exposure event's `properties.experiment`),
 * 2-10 variants with exactly one control, a goal of the site and a status. The server validates; its
 * messages appear under the field they concern (`variants.1.name` under that variant's name).
 * Results are not shown: the server computes them only for the API-key v1 API.
 */
import type { Experiment, ExperimentInput, ExperimentStatus, Goal } from '@pathlight/protocol'
import { useId, useState } from 'react'
import { api } from '../api/api'
import type { ApiError } from '../api/api-error'
import { slugOf } from '../lib/slug'
import { useAction } from '../lib/use-action'
import { useResource } from '../lib/use-resource'
import { ConfirmButton } from './confirm-button'
import { Field, FieldErrors } from './field'
import { FormError } from './form-error'
import { Loading } from './loading'

/** A goal as the form lists it. */
type GoalChoice = Pick<Goal, 'goalId' | 'name'>

const statuses: { value: ExperimentStatus; label: string }[] = [
  { value: 'draft', label: 'Draft' },
  { value: 'running', label: 'Running' },
  { value: 'completed', label: 'Completed' },
]

/** The form's fields as typed. `goalId` is '' until a goal is chosen. */
interface ExperimentDraft {
  name: string
  key: string
  description: string
  variants: { name: string; control: boolean }[]
  goalId: string
  status: ExperimentStatus
}

const emptyDraft = (goals: GoalChoice[]): ExperimentDraft => ({
  name: '',
  key: '',
  description: '',
  variants: [
    { name: 'control', control: true },
    { name: 'variant', control: false },
  ],
  goalId: goals.length === 1 ? String(goals[0]?.goalId) : '',
  status: 'draft',
})

const draftOf = (e: Experiment): ExperimentDraft => ({
  name: e.name,
  key: e.key,
  description: e.description ?? '',
  variants: e.variants.map((v) => ({ ...v })),
  goalId: e.goalId === null ? '' : String(e.goalId),
  status: e.status,
})

function inputOf(draft: ExperimentDraft): ExperimentInput {
  return {
    name: draft.name,
    key: draft.key.trim(),
    description: draft.description.trim() === '' ? null : draft.description,
    variants: draft.variants.map((v) => ({ name: v.name, control: v.control })),
    // 0 is refused by the server with a message under the goal field.
    goalId: draft.goalId === '' ? 0 : Number(draft.goalId),
    status: draft.status,
  }
}

/** The experiments card of the site settings. */
export function ExperimentsCard({ siteId, canAdmin }: { siteId: number; canAdmin: boolean }) {
  const list = useResource(`experiments:${siteId}`, async () => {
    const [experiments, goals] = await Promise.all([api.experiments(siteId), api.goals(siteId)])
    return { experiments, goals }
  })
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const action = useAction()
  const goals = list.data?.goals ?? []
  const goalName = (id: number | null) =>
    id === null ? 'Goal deleted' : (goals.find((g) => g.goalId === id)?.name ?? `Goal ${id}`)

  const save = (input: ExperimentInput, id: number | 'new') =>
    action.run(async () => {
      const saved =
        id === 'new'
          ? await api.createExperiment(siteId, input)
          : await api.updateExperiment(siteId, id, input)
      list.setData((current) => {
        const experiments = current?.experiments ?? []
        return {
          goals: current?.goals ?? [],
          experiments:
            id === 'new'
              ? [...experiments, saved]
              : experiments.map((e) => (e.experimentId === saved.experimentId ? saved : e)),
        }
      })
      setEditing(null)
    })

  const remove = async (id: number) => {
    await api.deleteExperiment(siteId, id)
    list.setData((current) => ({
      goals: current?.goals ?? [],
      experiments: (current?.experiments ?? []).filter((e) => e.experimentId !== id),
    }))
  }

  const edited = list.data?.experiments.find((e) => e.experimentId === editing)
  return (
    <section className="card" aria-labelledby="experiments-title" data-testid="experiments">
      <h2 id="experiments-title">Experiments</h2>
      <p>
        A/B tests of this site. Report each exposure with a custom event whose properties are{' '}
        <code>{'{"experiment": "<key>", "variant": "<variant name>"}'}</code>; the goal measures success.
        Results are read through the API (<code>GET /api/v1/sites/{'{id}'}/experiments</code>).
      </p>
      <FormError error={list.error} />
      {list.loading && list.data === undefined && <Loading />}
      {list.data && list.data.experiments.length === 0 && editing !== 'new' && (
        <p className="muted">No experiments yet.</p>
      )}
      {list.data && list.data.experiments.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Variants</th>
                <th scope="col">Goal</th>
                <th scope="col">Status</th>
                {canAdmin && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.data.experiments.map((e) => (
                <tr key={e.experimentId} data-experiment={e.key}>
                  <td>
                    {e.name}
                    {e.description && <div className="muted">{e.description}</div>}
                  </td>
                  <td>
                    <code>{e.key}</code>
                  </td>
                  <td>{e.variants.map((v) => (v.control ? `${v.name} (control)` : v.name)).join(', ')}</td>
                  <td>{goalName(e.goalId)}</td>
                  <td>{statuses.find((s) => s.value === e.status)?.label ?? e.status}</td>
                  {canAdmin && (
                    <td className="actions">
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        onClick={() => {
                          action.clear()
                          setEditing(e.experimentId)
                        }}
                      >
                        Edit
                      </button>{' '}
                      <ConfirmButton
                        label="Delete"
                        question={`Delete ${e.name}?`}
                        confirmLabel="Delete experiment"
                        danger
                        onConfirm={() => remove(e.experimentId)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canAdmin && list.data && editing === null && (
        <div className="form-actions">
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              action.clear()
              setEditing('new')
            }}
          >
            New experiment
          </button>
        </div>
      )}
      {canAdmin && list.data && goals.length === 0 && editing === 'new' && (
        <p className="notice">This site has no goals yet: create one on the Goals page first.</p>
      )}
      {canAdmin && list.data && editing !== null && (editing === 'new' || edited) && (
        <ExperimentForm
          key={editing}
          title={editing === 'new' ? 'New experiment' : `Edit ${edited?.name ?? ''}`}
          initial={edited ? draftOf(edited) : emptyDraft(goals)}
          isNew={editing === 'new'}
          goals={goals}
          busy={action.busy}
          error={action.error}
          onSubmit={(input) => void save(input, editing)}
          onCancel={() => {
            action.clear()
            setEditing(null)
          }}
        />
      )}
    </section>
  )
}

interface ExperimentFormProps {
  title: string
  initial: ExperimentDraft
  isNew: boolean
  goals: GoalChoice[]
  busy: boolean
  error: ApiError | undefined
  onSubmit(input: ExperimentInput): void
  onCancel(): void
}

function ExperimentForm({
  title,
  initial,
  isNew,
  goals,
  busy,
  error,
  onSubmit,
  onCancel,
}: ExperimentFormProps) {
  const [draft, setDraft] = useState(initial)
  const [keyTouched, setKeyTouched] = useState(!isNew)
  const titleId = useId()
  const controlName = useId()
  const variantErrorsId = useId()
  const set = <K extends keyof ExperimentDraft>(key: K, value: ExperimentDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }))
  const setVariant = (index: number, change: Partial<{ name: string; control: boolean }>) =>
    setDraft((d) => ({
      ...d,
      variants: d.variants.map((v, i) =>
        i === index ? { ...v, ...change } : change.control ? { ...v, control: false } : v,
      ),
    }))
  const variantsErrors = error?.field('variants')
  return (
    <form
      className="experiment-form stack"
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit(inputOf(draft))
      }}
    >
      <h3 id={titleId}>{title}</h3>
      <FormError error={error} />
      <Field label="Name" errors={error?.field('name')}>
        {(control) => (
          <input
            {...control}
            maxLength={100}
            value={draft.name}
            onChange={(e) => {
              const name = e.target.value
              setDraft((d) => ({ ...d, name, key: keyTouched ? d.key : slugOf(name) }))
            }}
          />
        )}
      </Field>
      <Field
        label="Key"
        hint="Lower-case letters, digits, - or _; the value of properties.experiment in the exposure event."
        errors={error?.field('key')}
      >
        {(control) => (
          <input
            {...control}
            spellCheck={false}
            autoCapitalize="none"
            value={draft.key}
            onChange={(e) => {
              setKeyTouched(true)
              set('key', e.target.value)
            }}
          />
        )}
      </Field>
      <Field label="Description (optional)" errors={error?.field('description')}>
        {(control) => (
          <textarea
            {...control}
            rows={2}
            maxLength={1000}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
          />
        )}
      </Field>
      <fieldset className="group" aria-describedby={variantsErrors ? variantErrorsId : undefined}>
        <legend>Variants</legend>
        <p className="hint">
          2 to 10; exactly one is the control. Names are matched against properties.variant.
        </p>
        {draft.variants.map((variant, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: variants have no id; their order is their identity
          <div className="row variant-row" key={index}>
            <Field label={`Variant ${index + 1} name`} errors={error?.field(`variants.${index}.name`)}>
              {(control) => (
                <input
                  {...control}
                  maxLength={64}
                  value={variant.name}
                  onChange={(e) => setVariant(index, { name: e.target.value })}
                />
              )}
            </Field>
            <label className="variant-control">
              <input
                type="radio"
                name={controlName}
                aria-label={`Variant ${index + 1} is the control`}
                checked={variant.control}
                onChange={() => setVariant(index, { control: true })}
              />{' '}
              Control
            </label>
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={draft.variants.length <= 2}
              aria-label={`Remove variant ${index + 1}`}
              onClick={() => setDraft((d) => ({ ...d, variants: d.variants.filter((_, i) => i !== index) }))}
            >
              Remove
            </button>
          </div>
        ))}
        {variantsErrors && <FieldErrors id={variantErrorsId} errors={variantsErrors} />}
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={draft.variants.length >= 10}
          onClick={() => setDraft((d) => ({ ...d, variants: [...d.variants, { name: '', control: false }] }))}
        >
          Add a variant
        </button>
      </fieldset>
      <div className="row">
        <Field label="Goal" errors={error?.field('goalId')}>
          {(control) => (
            <select {...control} value={draft.goalId} onChange={(e) => set('goalId', e.target.value)}>
              <option value="">Choose a goal…</option>
              {goals.map((g) => (
                <option key={g.goalId} value={String(g.goalId)}>
                  {g.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status" errors={error?.field('status')}>
          {(control) => (
            <select
              {...control}
              value={draft.status}
              onChange={(e) => set('status', e.target.value as ExperimentStatus)}
            >
              {statuses.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : isNew ? 'Create experiment' : 'Save experiment'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
