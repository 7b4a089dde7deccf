import type { Client } from './create-client.js'
import type { PathlightApi, Properties } from './types.js'

const PROP_PREFIX = 'data-pathlight-prop-'

/**
 * Click tracking (primary and middle button), in the capture phase so a page's `stopPropagation`
 * cannot hide clicks:
 * - an element inside `[data-pathlight-event="name"]` sends that custom event, with one property per
 *   `data-pathlight-prop-<key>="value"` attribute of the tagged element;
 * - a link to another host name (http or https) sends an `outbound` event with url, text (trimmed,
 *   at most 200 characters) and target, when the site's `trackOutbound` is on.
 */
export function trackClicks(client: Client, api: PathlightApi): void {
  const onClick = (event: MouseEvent) => {
    const target = event.target
    if ((event.type === 'auxclick' && event.button !== 1) || !(target instanceof Element)) return
    const tagged = target.closest('[data-pathlight-event]')
    if (tagged) {
      const properties: Properties = {}
      for (const { name, value } of tagged.attributes) {
        if (name.startsWith(PROP_PREFIX)) properties[name.slice(PROP_PREFIX.length)] = value
      }
      api.event(tagged.getAttribute('data-pathlight-event') as string, properties)
    }
    const link = target.closest('a')
    if (link && /^https?:$/.test(link.protocol) && link.hostname !== location.hostname) {
      client.send(
        'outbound',
        {
          properties: JSON.stringify({
            url: link.href.slice(0, 1500),
            text: link.innerText.trim().slice(0, 200),
            target: link.target,
          }),
        },
        'trackOutbound',
      )
    }
  }
  addEventListener('click', onClick, true)
  addEventListener('auxclick', onClick, true)
}
