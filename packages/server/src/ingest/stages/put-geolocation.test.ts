import { afterAll, describe, expect, it } from 'vitest'
import { openStageDeps, rowColumns, type StageDeps, stageDraft } from '../draft.fixture.js'
import { openGeolocator } from '../enrich/geolocation.js'
import { putGeolocation } from './put-geolocation.js'

/** The location columns of the row after `putGeolocation` for a request from `ip`. */
const locate = (ip: string, deps: StageDeps) => {
  const draft = stageDraft({ incoming: { ip } })
  expect(putGeolocation(draft, deps)).toEqual({ ok: true })
  return rowColumns(draft, ['country', 'region', 'city', 'lat', 'lon'])
}
const unknown = { country: '', region: '', city: '', lat: null, lon: null }

const geolocator = await openGeolocator()
const deps = await openStageDeps({ geolocator })
const off = await openStageDeps({ geolocator: null })
afterAll(async () => {
  geolocator.close()
  await deps.close()
  await off.close()
})

describe('putGeolocation with the DB-IP databases', () => {
  it('fills country, region, city and coordinates of a public address', () => {
    const us = locate('8.8.8.8', deps)
    expect(us).toEqual({ ...geolocator.lookup('8.8.8.8'), country: 'US' })
    expect(typeof us.lat).toBe('number')
    expect(locate('81.2.69.142', deps).country).toBe('GB')
  })

  it('leaves the fields empty for private and loopback addresses', () => {
    expect(locate('10.1.2.3', deps)).toEqual(unknown)
    expect(locate('::1', deps)).toEqual(unknown)
  })
})

describe('putGeolocation with geolocation off (GEOIP=off)', () => {
  it('leaves the fields empty', () => {
    expect(locate('8.8.8.8', off)).toEqual(unknown)
  })
})
