import { describe, expect, it } from 'vitest'
import { type SiteSettings, stageDraft } from '../draft.fixture.js'
import { dropDisabledTypes } from './drop-disabled-types.js'

/** A body of each type that a site switch governs, and that switch. */
const governed = [
  ['outbound', { type: 'outbound', properties: '{"url":"https://elsewhere.test/"}' }, 'trackOutbound'],
  ['error', { type: 'error', properties: '{"message":"x"}' }, 'trackErrors'],
  ['performance', { type: 'performance', lcp: 1200 }, 'webVitals'],
  ['heatmap_click', { type: 'heatmap_click', selector: '#buy', click_x: 0.5, click_y: 0.5 }, 'heatmaps'],
] as const

const allOff: SiteSettings = { trackOutbound: false, trackErrors: false, webVitals: false, heatmaps: false }
const allOn: SiteSettings = { trackOutbound: true, trackErrors: true, webVitals: true, heatmaps: true }

describe('dropDisabledTypes', () => {
  it.each(governed)('does not record a keyless %s event while %s is off', (_type, body, switchName) => {
    expect(dropDisabledTypes(stageDraft({ site: allOff, body }))).toEqual({
      ok: false,
      reason: { kind: 'type_disabled', switch: switchName },
    })
  })

  it.each(governed)('records a keyless %s event once %s is on', (_type, body) => {
    expect(dropDisabledTypes(stageDraft({ site: allOn, body }))).toEqual({ ok: true })
  })

  it('records pageviews and custom events whatever the switches', () => {
    for (const body of [{ type: 'pageview' }, { type: 'custom_event', event_name: 'signup' }]) {
      expect(dropDisabledTypes(stageDraft({ site: allOff, body }))).toEqual({ ok: true })
    }
  })

  it.each(governed)('records a %s event sent with an API key even while its switch is off', (_type, body) => {
    expect(dropDisabledTypes(stageDraft({ site: allOff, body, authenticated: true }))).toEqual({ ok: true })
  })
})
