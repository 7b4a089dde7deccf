import type { RunMode } from './plan-runs.js'

/** What a Pathlight server's seeding created that the request headers need. */
export interface TrackSite {
  /** The site's API key (keyed requests). */
  apiKey: string
  /** The site's domain, e.g. `example.com` (keyless requests send it as their Origin). */
  domain: string
}

/**
 * The headers a run adds to every `POST /api/track` (run-load.ts adds `Content-Type` and the
 * request's `User-Agent`): none for `bare`; `Origin: http://<domain>` for `keyless`, as a browser on
 * the site sends (the server checks it against the site's domain); `Authorization: Bearer <key>` for
 * `keyed`.
 */
export function trackHeaders(mode: RunMode, site: TrackSite): Record<string, string> {
  switch (mode) {
    case 'bare':
      return {}
    case 'keyless':
      return { origin: `http://${site.domain}` }
    case 'keyed':
      return { authorization: `Bearer ${site.apiKey}` }
  }
}
