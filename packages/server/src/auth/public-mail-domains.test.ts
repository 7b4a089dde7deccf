import { describe, expect, it } from 'vitest'
import { emailDomainOf, isPublicMailDomain } from './public-mail-domains.js'

describe('public mail domains', () => {
  it('refuses the free mail services and their subdomains, not a company domain', () => {
    expect(isPublicMailDomain('gmail.com')).toBe(true)
    expect(isPublicMailDomain('eu.outlook.com')).toBe(true)
    expect(isPublicMailDomain('example.com')).toBe(false)
    expect(isPublicMailDomain('gmail.com.example.org')).toBe(false)
  })

  it('reads the domain of an address, lowercased', () => {
    expect(emailDomainOf('Ada@Example.COM')).toBe('example.com')
    expect(emailDomainOf('no-domain@')).toBeUndefined()
    expect(emailDomainOf('plain')).toBeUndefined()
  })
})
