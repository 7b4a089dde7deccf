import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.js'

describe('loadConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      clickhouseUrl: undefined,
      redisUrl: undefined,
      disableSignup: false,
      baseUrl: 'http://127.0.0.1:3000',
      trackKeyLimit: { max: 500, windowMs: 600_000 },
      trustProxy: false,
    })
    expect(config.dataDir).toMatch(/\/data$/)
  })

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/pathlight',
      DATABASE_URL: 'postgres://u@db:5432/pathlight',
      CLICKHOUSE_URL: 'http://ch:8123/pathlight',
      REDIS_URL: 'redis://cache:6379',
      DISABLE_SIGNUP: 'true',
      BASE_URL: 'https://stats.example.com/',
      TRUST_PROXY: '2',
    })
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/pathlight',
      databaseUrl: 'postgres://u@db:5432/pathlight',
      clickhouseUrl: 'http://ch:8123/pathlight',
      redisUrl: 'redis://cache:6379',
      disableSignup: true,
      baseUrl: 'https://stats.example.com',
    })
    expect(typeof config.trustProxy).toBe('function')
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ CLICKHOUSE_URL: 'not a url' }, 'CLICKHOUSE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ DISABLE_SIGNUP: 'maybe' }, 'DISABLE_SIGNUP'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ PATHLIGHT_TRACK_KEY_LIMIT: '0' }, 'PATHLIGHT_TRACK_KEY_LIMIT'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `))
  })
})
