/**
 * An organization's own OIDC issuer is fetched by the server (discovery at saving, then the plugin's
 * discovery, token and JWKS requests), so by default one on a loopback, private or link-local address is
 * refused at saving, before any request is made: an organization owner must not be able to make the
 * server reach the instance's own network. SSO_ALLOW_PRIVATE_ISSUERS lifts it (the end-to-end tests in
 * `test/sso-organization-providers.test.ts` run with it, their providers being on loopback).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

let t: TestInstance
let issuerServer: Server
let issuerRequests = 0
let issuer: string

beforeAll(async () => {
  t = await openTestInstance()
  // A listener on loopback that would answer anything: it must never be asked.
  issuerServer = createServer((_request, response) => {
    issuerRequests++
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`
})

afterAll(async () => {
  await t?.close()
  await new Promise((resolve) => issuerServer?.close(resolve))
})

describe("an organization's identity provider on a private address", () => {
  it.each([
    ['loopback', () => issuer],
    ['a private network', () => 'http://10.0.0.7'],
    ['the cloud metadata address', () => 'http://169.254.169.254'],
  ])(
    'is refused at saving when the issuer is on %s, naming the field, with nothing fetched',
    async (_, url) => {
      const owner = await t.signUp()
      const organizationId = await t.createOrganization(owner.cookie)
      const answer = await t.app.inject({
        method: 'PUT',
        url: `/api/organizations/${organizationId}/sso/provider`,
        headers: { cookie: owner.cookie },
        payload: { issuer: url(), clientId: 'pathlight', clientSecret: 'secret', domains: ['acme.test'] },
      })
      expect(answer.statusCode).toBe(400)
      expect(Object.keys(answer.json().details.fieldErrors)).toEqual(['issuer'])
      expect(answer.json().error).toMatch(/private, loopback or link-local/)
      expect(issuerRequests).toBe(0)
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/organizations/${organizationId}/sso/provider`,
        headers: { cookie: owner.cookie },
      })
      expect(read.statusCode).toBe(200)
      expect(read.json().provider ?? null).toBeNull()
    },
  )
})
