import type { EventFields, EventType, Feature, TrackerConfig } from './types.js'

/** One page's connection to the Pathlight server the script was loaded from. */
export interface Client {
  /** The referrer of the next pageview: `document.referrer` at first, the previous page after SPA moves. */
  referrer: string
  /** The page's path as tracked: `location.pathname`, plus `location.hash` in hash mode. */
  path(): string
  /** An absolute URL of a file next to the script (`track` -> `https://host/api/track`). */
  url(file: string): string
  /** The site's switches; resolves once per page load, to `{}` (all off) when the request fails. */
  ready: Promise<Partial<TrackerConfig>>
  /**
   * Send one event with the current page fields, as `text/plain` with `keepalive` so it survives the
   * page unloading and needs no CORS preflight. With `feature`, the event waits for the config and is
   * dropped when that switch is off. Never throws; network errors are swallowed.
   */
  send(type: EventType, fields?: EventFields, feature?: Feature): void
}

/**
 * Create the client of the script tag `script` (its `src` locates the server, `data-site-id` names the
 * site) and start fetching the site's config.
 */
export function createClient(script: HTMLScriptElement, hashMode: boolean): Client {
  const siteId = script.getAttribute('data-site-id') || ''
  let config: Partial<TrackerConfig> | undefined
  const post = (body: object) => {
    fetch(client.url('track'), {
      method: 'POST',
      body: JSON.stringify(body),
      keepalive: true,
      mode: 'no-cors',
      credentials: 'omit',
    }).catch(() => {})
  }
  const client: Client = {
    referrer: document.referrer,
    path: () => location.pathname + (hashMode ? location.hash : ''),
    url: (file) => new URL(file, script.src).href,
    ready: fetch(new URL(`sites/${siteId}/tracker-config`, script.src).href)
      .then((response) => response.json())
      .catch(() => ({}))
      .then((value: Partial<TrackerConfig>) => (config = value)),
    send(type, fields, feature) {
      const body = Object.assign(
        {
          site_id: siteId,
          type,
          pathname: client.path().slice(0, 2048),
          hostname: location.hostname,
          page_title: document.title.slice(0, 512),
          // The first pageview goes out before the config is known: the server keeps the querystring only
          // when the site tracks URL params (and reads UTM tags from it either way).
          querystring: config && !config.trackUrlParams ? '' : location.search.slice(1, 2049),
          referrer: client.referrer.slice(0, 2048),
          screenWidth: screen.width,
          screenHeight: screen.height,
          language: navigator.language,
        },
        fields,
      )
      if (feature) client.ready.then((value) => value[feature] && post(body))
      else post(body)
    },
  }
  return client
}
