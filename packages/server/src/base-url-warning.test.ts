import { expect, it } from 'vitest'
import { baseUrlWarning, isLoopbackHost } from './base-url-warning.js'
import { loadConfig } from './config.js'

it('tells loopback hosts from those other machines reach', () => {
  for (const host of [
    '127.0.0.1',
    '127.8.9.10',
    'localhost',
    'LocalHost',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
  ])
    expect(isLoopbackHost(host), host).toBe(true)
  for (const host of [
    '0.0.0.0',
    '::',
    '10.0.0.5',
    '192.168.1.2',
    'fe80::1',
    'analytics.example.com',
    '::ffff:10.1.1.1',
  ])
    expect(isLoopbackHost(host), host).toBe(false)
})

it('warns when BASE_URL is unset and HOST is beyond loopback, from the parsed environment', () => {
  const warning = baseUrlWarning(loadConfig({ HOST: '0.0.0.0' }))
  expect(warning).toMatch(/^Warning: BASE_URL is not set while HOST=0\.0\.0\.0 serves beyond this machine/)
  expect(warning).toContain('Set BASE_URL')
  expect(baseUrlWarning(loadConfig({ HOST: '192.168.1.2' }))).toMatch(/HOST=192\.168\.1\.2/)
  expect(baseUrlWarning(loadConfig({ HOST: '0.0.0.0', BASE_URL: 'https://a.example.com' }))).toBeNull()
  expect(baseUrlWarning(loadConfig({}))).toBeNull()
  expect(baseUrlWarning(loadConfig({ HOST: 'localhost' }))).toBeNull()
})
