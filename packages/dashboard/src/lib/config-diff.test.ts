import type { SiteConfig } from '@pathlight/protocol'
import { describe, expect, it } from 'vitest'
import { changedConfig } from './config-diff'

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
