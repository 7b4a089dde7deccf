/** The part of a site configuration form that changed, to send as `PUT /api/sites/{id}/config`. */
import type { SiteConfig } from '@pathlight/protocol'

/** @returns the fields of `next` that differ from `saved` (lists compared entry by entry, in order) */
export function changedConfig<T extends Partial<SiteConfig>>(saved: T, next: T): Partial<T> {
  const changes: Partial<T> = {}
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (JSON.stringify(saved[key]) !== JSON.stringify(next[key])) {
      Object.assign(changes, { [key]: next[key] })
    }
  }
  return changes
}

/**
 * What a save changed, in the form's words: 'Saved: Session replay, Core Web Vitals and JavaScript
 * errors.' for the changed fields `keys` (in the form's order), each named by its label in `labels`;
 * 'Saved.' for none.
 */
export function savedText<K extends string>(keys: readonly K[], labels: Readonly<Record<K, string>>): string {
  const names = keys.map((key) => labels[key])
  if (names.length === 0) return 'Saved.'
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  return `Saved: ${list}.`
}
