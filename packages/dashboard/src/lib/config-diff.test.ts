import type { SiteConfig } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { changedConfig, savedText } from './config-diff'

describe('changedConfig', () => {
  const saved: SiteConfig = {
    public: false,
    saltUserIds: false,
    blockBots: true,
    excludedIPs: ['10.0.0.1'],
    excludedCountries: [],
    sessionReplay: false,
    webVitals: false,
    trackErrors: false,
    trackOutbound: true,
    trackUrlParams: true,
    trackInitialPageView: true,
    trackSpaNavigation: true,
    trackButtonClicks: false,
    trackCopy: false,
    trackFormInteractions: false,
    heatmaps: false,
    retentionDays: null,
    replaySampleRate: 1,
    replayRetentionDays: 30,
  }

  it('sends only what changed', () => {
    expect(changedConfig(saved, { ...saved })).toEqual({})
    expect(changedConfig(saved, { ...saved, trackErrors: true, excludedIPs: ['10.0.0.1'] })).toEqual({
      trackErrors: true,
    })
    expect(changedConfig(saved, { ...saved, excludedIPs: [], excludedCountries: ['DE'] })).toEqual({
      excludedIPs: [],
      excludedCountries: ['DE'],
    })
    expect(changedConfig(saved, { ...saved, retentionDays: 90 })).toEqual({ retentionDays: 90 })
    expect(changedConfig({ ...saved, retentionDays: 90 }, saved)).toEqual({ retentionDays: null })
    expect(changedConfig(saved, { ...saved, replaySampleRate: 0.25, replayRetentionDays: 7 })).toEqual({
      replaySampleRate: 0.25,
      replayRetentionDays: 7,
    })
    // A field left empty in the form is NaN: a change, sent as null for the server to refuse.
    expect(changedConfig(saved, { ...saved, replayRetentionDays: Number.NaN })).toEqual({
      replayRetentionDays: Number.NaN,
    })
  })
})

describe('savedText', () => {
  const labels = {
    sessionReplay: 'Session replay',
    webVitals: 'Core Web Vitals',
    trackErrors: 'JavaScript errors',
  }
  it('names the changed fields by their labels', () => {
    expect(savedText(['sessionReplay', 'webVitals', 'trackErrors'], labels)).toBe(
      'Saved: Session replay, Core Web Vitals and JavaScript errors.',
    )
    expect(savedText(['webVitals'], labels)).toBe('Saved: Core Web Vitals.')
    expect(savedText([], labels)).toBe('Saved.')
  })
})
