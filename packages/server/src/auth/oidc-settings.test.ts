import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.js'
import { roleFromClaims } from './sso-roles.js'

const provider = {
  OIDC_ISSUER: 'https://idp.example.com/realms/acme/',
  OIDC_CLIENT_ID: 'pathlight',
  OIDC_CLIENT_SECRET: 's3cret',
}

describe('OIDC settings', () => {
  it('are off without an issuer, and parsed with one', () => {
    expect(loadConfig({}).oidc).toBeUndefined()
    const oidc = loadConfig({
      ...provider,
      OIDC_ROLE_MAP: 'analytics-admins:admin, analytics:member,ops:team:owner',
      OIDC_ORGANIZATION: 'Acme',
    }).oidc
    expect(oidc).toMatchObject({
      issuer: 'https://idp.example.com/realms/acme',
      clientId: 'pathlight',
      roleClaim: 'groups',
      organization: 'Acme',
      allowLinking: false,
      name: 'SSO',
    })
    expect([...(oidc?.roleMap ?? [])]).toEqual([
      ['analytics-admins', 'admin'],
      ['analytics', 'member'],
      ['ops:team', 'owner'],
    ])
  })

  it('refuse to start naming the setting that is wrong or missing', () => {
    expect(() => loadConfig({ ...provider, OIDC_ROLE_MAP: 'ops:superuser' })).toThrow(ConfigError)
    expect(() => loadConfig({ ...provider, OIDC_ROLE_MAP: 'ops:superuser' })).toThrow(
      /OIDC_ROLE_MAP: "ops:superuser" is not group:role/,
    )
    expect(() => loadConfig({ OIDC_ISSUER: provider.OIDC_ISSUER })).toThrow(
      /OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: required with OIDC_ISSUER/,
    )
    expect(() => loadConfig({ ...provider, OIDC_ISSUER: 'not a url' })).toThrow(/OIDC_ISSUER/)
    expect(() => loadConfig({ ...provider, OIDC_ALLOW_LINKING: 'maybe' })).toThrow(/OIDC_ALLOW_LINKING/)
  })
})

describe('roleFromClaims', () => {
  const oidc = {
    roleClaim: 'groups',
    roleMap: new Map([
      ['analytics', 'member'],
      ['analytics-admins', 'admin'],
    ] as const),
  }
  it('takes the highest role matched, from a list, a string or a nested claim', () => {
    expect(roleFromClaims({ groups: ['analytics', 'analytics-admins', 'other'] }, oidc)).toBe('admin')
    expect(roleFromClaims({ groups: 'analytics' }, oidc)).toBe('member')
    expect(roleFromClaims({ groups: ['other'] }, oidc)).toBeNull()
    expect(roleFromClaims({}, oidc)).toBeNull()
    expect(
      roleFromClaims(
        { realm_access: { roles: ['analytics'] } },
        { ...oidc, roleClaim: 'realm_access.roles' },
      ),
    ).toBe('member')
  })
})
