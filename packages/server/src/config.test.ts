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
      accessLog: false,
      logLevel: 'info',
      baseUrl: 'http://127.0.0.1:3000',
      trackKeyLimit: { max: 500, windowMs: 600_000 },
      trustProxy: false,
    })
    expect(config.dataDir).toMatch(/\/data$/)
  })

  it('resolves a relative DATA_DIR against where npm was started (INIT_CWD), else the working directory', () => {
    expect(loadConfig({ INIT_CWD: '/home/ada/pathlight' }).dataDir).toBe('/home/ada/pathlight/data')
    expect(loadConfig({ INIT_CWD: '/home/ada/pathlight', DATA_DIR: 'store' }).dataDir).toBe(
      '/home/ada/pathlight/store',
    )
    expect(loadConfig({ INIT_CWD: '/home/ada', DATA_DIR: '/var/lib/pathlight' }).dataDir).toBe(
      '/var/lib/pathlight',
    )
    expect(loadConfig({}).dataDir).toBe(`${process.cwd()}/data`)
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
      ACCESS_LOG: 'true',
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
      accessLog: true,
      baseUrl: 'https://stats.example.com',
    })
    expect(typeof config.trustProxy).toBe('function')
  })

  it('serves the MCP server unless MCP_ENABLED is false', () => {
    expect(loadConfig({}).mcpEnabled).toBe(true)
    expect(loadConfig({ MCP_ENABLED: 'false' }).mcpEnabled).toBe(false)
    expect(() => loadConfig({ MCP_ENABLED: 'maybe' })).toThrow(/MCP_ENABLED/)
  })

  it('keeps events forever unless RETENTION_DAYS sets a default period, and runs retention daily', () => {
    expect(loadConfig({}).retention).toEqual({ defaultDays: null, intervalMs: 86_400_000 })
    expect(loadConfig({ RETENTION_DAYS: '400', RETENTION_INTERVAL_MS: '1000' }).retention).toEqual({
      defaultDays: 400,
      intervalMs: 1000,
    })
  })

  it('looks for due e-mail reports every 10 minutes unless EMAIL_REPORT_INTERVAL_MS says otherwise', () => {
    expect(loadConfig({}).emailReportIntervalMs).toBe(600_000)
    expect(loadConfig({ EMAIL_REPORT_INTERVAL_MS: '300' }).emailReportIntervalMs).toBe(300)
    expect(() => loadConfig({ EMAIL_REPORT_INTERVAL_MS: '0' })).toThrow(/EMAIL_REPORT_INTERVAL_MS/)
    expect(() => loadConfig({ EMAIL_REPORT_INTERVAL_MS: 'hourly' })).toThrow(ConfigError)
  })

  it('degrades health after 60 s of pending ingest unless HEALTH_MAX_PENDING_AGE_S says otherwise', () => {
    expect(loadConfig({}).healthMaxPendingAgeMs).toBe(60_000)
    expect(loadConfig({ HEALTH_MAX_PENDING_AGE_S: '2.5' }).healthMaxPendingAgeMs).toBe(2500)
    expect(() => loadConfig({ HEALTH_MAX_PENDING_AGE_S: '0' })).toThrow(/HEALTH_MAX_PENDING_AGE_S/)
    expect(() => loadConfig({ HEALTH_MAX_PENDING_AGE_S: 'soon' })).toThrow(ConfigError)
  })

  it('searches the geolocation databases on disk unless GEOIP says memory or off', () => {
    expect(loadConfig({}).geoip).toBe('disk')
    expect(loadConfig({ GEOIP: 'on' }).geoip).toBe('disk')
    expect(loadConfig({ GEOIP: 'memory' }).geoip).toBe('memory')
    expect(loadConfig({ GEOIP: 'off' }).geoip).toBeNull()
    expect(() => loadConfig({ GEOIP: 'country' })).toThrow(/GEOIP/)
  })

  it('serves no metrics unless METRICS_TOKEN is set', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined()
    const token = 'scrape-token-0123456789'
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token)
  })

  it('reads a sharded cluster: its name and one address per shard', () => {
    const config = loadConfig({
      CLICKHOUSE_URL: 'http://ch1:8123/pathlight',
      CLICKHOUSE_CLUSTER: 'pathlight',
      CLICKHOUSE_SHARD_URLS: 'http://ch1:8123, http://u:p@ch2:8123/',
    })
    expect(config.clickhouseCluster).toEqual({
      cluster: 'pathlight',
      shardUrls: ['http://ch1:8123', 'http://u:p@ch2:8123'],
    })
    expect(loadConfig({ CLICKHOUSE_URL: 'http://ch1:8123/pathlight' }).clickhouseCluster).toBeUndefined()
  })

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ CLICKHOUSE_URL: 'not a url' }, 'CLICKHOUSE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ DISABLE_SIGNUP: 'maybe' }, 'DISABLE_SIGNUP'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'a token with spaces in it' }, 'METRICS_TOKEN'],
    [{ PATHLIGHT_TRACK_KEY_LIMIT: '0' }, 'PATHLIGHT_TRACK_KEY_LIMIT'],
    [{ RETENTION_DAYS: '29' }, 'RETENTION_DAYS'],
    [{ RETENTION_DAYS: '30.5' }, 'RETENTION_DAYS'],
    [
      {
        CLICKHOUSE_URL: 'http://ch1:8123/p',
        CLICKHOUSE_CLUSTER: 'not-a-name',
        CLICKHOUSE_SHARD_URLS: 'http://ch1:8123',
      },
      'CLICKHOUSE_CLUSTER',
    ],
    [{ CLICKHOUSE_URL: 'http://ch1:8123/p', CLICKHOUSE_SHARD_URLS: 'http://ch1:8123' }, 'CLICKHOUSE_CLUSTER'],
    [{ CLICKHOUSE_URL: 'http://ch1:8123/p', CLICKHOUSE_CLUSTER: 'c' }, 'CLICKHOUSE_SHARD_URLS'],
    [
      {
        CLICKHOUSE_URL: 'http://ch1:8123/p',
        CLICKHOUSE_CLUSTER: 'c',
        CLICKHOUSE_SHARD_URLS: 'http://ch1:8123,ftp://x',
      },
      'CLICKHOUSE_SHARD_URLS',
    ],
    [
      {
        CLICKHOUSE_URL: 'http://ch1:8123/p',
        CLICKHOUSE_CLUSTER: 'c',
        CLICKHOUSE_SHARD_URLS: 'http://ch1:8123/db',
      },
      'CLICKHOUSE_SHARD_URLS',
    ],
    [{ CLICKHOUSE_CLUSTER: 'c', CLICKHOUSE_SHARD_URLS: 'http://ch1:8123' }, 'CLICKHOUSE_URL'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `))
  })
})
