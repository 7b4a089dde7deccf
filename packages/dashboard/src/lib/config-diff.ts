/** The part of a site configuration form that changed, to send as `PUT /api/sites/{id}/config`. */
import type { SiteConfig } from '@pathlight/protocol'

/** @returns the fields of `next` that differ from `saved` (lists compared entry by entry, in order) */
export function changedConfig(saved: SiteConfig, next: SiteConfig): Partial<SiteConfig> {
  const changes: Partial<SiteConfig> = {}
  for (const key of Object.keys(next) as (keyof SiteConfig)[]) {
    if (JSON.stringify(saved[key]) !== JSON.stringify(next[key])) {
      Object.assign(changes, { [key]: next[key] })
    }
  }
  return changes
}
