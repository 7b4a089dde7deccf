/**
 * The switches of a site that only Rybbit's web SDK reads (migration 016): whether it sends the first
 * pageview and one per client-side navigation, and whether it records button clicks, copies, and form
 * submits with input changes. Part of the Site and SiteConfig resources.
 */
import type { SiteConfig } from '@pathlight/protocol'
import { toBool } from '../storage/metadata/schema.js'
import type { SiteRow } from './site.js'

/** The SDK-only switch names of the API resources. */
export type SdkSwitches = Pick<
  SiteConfig,
  'trackInitialPageView' | 'trackSpaNavigation' | 'trackButtonClicks' | 'trackCopy' | 'trackFormInteractions'
>

/** The SDK-only switches of a site row. */
export function sdkSwitchesOf(row: SiteRow): SdkSwitches {
  return {
    trackInitialPageView: toBool(row.track_initial_pageview),
    trackSpaNavigation: toBool(row.track_spa_navigation),
    trackButtonClicks: toBool(row.track_button_clicks),
    trackCopy: toBool(row.track_copy),
    trackFormInteractions: toBool(row.track_form_interactions),
  }
}
