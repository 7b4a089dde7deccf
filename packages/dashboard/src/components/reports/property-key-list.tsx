/**
 * A `<datalist>` of the custom property keys seen in the range, for a property key input of a goal or
 * funnel step (`list={id}`): the keys of the event typed beside it when the range has that event, else
 * of every custom event. The input still takes any text; while the keys load, or if they fail to, the
 * list is empty.
 */
import { useMemo } from 'react'
import { createPropertyKeyLoader, type PropertyKeyLoader } from '../../lib/property-key-loader'
import { unfiltered } from '../../lib/report-query'
import { useResource } from '../../lib/use-resource'
import type { ReportContext } from '../../pages/report-context'

/** Keys suggested per list (the most frequent). */
const MAX_KEYS = 200

/**
 * The loader of the keys seen in the range of `ctx` (its days and zone; a goal or a funnel step is
 * defined whatever the view's filters, so they are left out), per event for `eventNames`.
 */
export function usePropertyKeyLoader(ctx: ReportContext, eventNames: readonly string[]): PropertyKeyLoader {
  const { reports } = ctx
  const range = unfiltered(ctx.query)
  const rangeKey = JSON.stringify(range)
  const names = eventNames.join('\n')
  // biome-ignore lint/correctness/useExhaustiveDependencies: rangeKey stands for range, names for eventNames
  return useMemo(
    () =>
      createPropertyKeyLoader(rangeKey, eventNames, async (name) => {
        const answer = await reports.propertyKeys(range, name, { limit: MAX_KEYS })
        return answer.data.map((row) => row.key)
      }),
    [reports, rangeKey, names],
  )
}

/** The list under `id`, for the event name `eventName` as typed. */
export function PropertyKeyList({
  id,
  loader,
  eventName,
}: {
  id: string
  loader: PropertyKeyLoader
  eventName: string
}) {
  const list = loader.listFor(eventName)
  const keys = useResource(`property-keys:${loader.key}:${list ?? ''}:${list === undefined}`, () =>
    loader.keys(list),
  )
  return (
    <datalist id={id} data-testid="property-keys">
      {(keys.data ?? []).map((key) => (
        <option key={key} value={key} />
      ))}
    </datalist>
  )
}
