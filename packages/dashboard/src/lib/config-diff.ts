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
