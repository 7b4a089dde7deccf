/**
 * SMTP_URL and MAIL_FROM through `loadConfig`: accepted forms, the default sender and mail budgets,
 * refusals naming the variable, and the refusal of features without mail.
 */
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../config.js'
import { AppError } from '../shared/errors.js'
import { mailUnavailable, requireMail } from './mail-settings.js'

describe('mail settings', () => {
  it('reads SMTP_URL and MAIL_FROM', () => {
    expect(
      loadConfig({ SMTP_URL: 'smtps://me%40x.org:p%3Ass@mail.x.org:465', MAIL_FROM: 'Stats <stats@x.org>' })
        .mail,
    ).toEqual({
      smtpUrl: 'smtps://me%40x.org:p%3Ass@mail.x.org:465',
      from: 'Stats <stats@x.org>',
      pollMs: 1000,
      budget: { perRecipient: 5, perOrganization: 200, windowMs: 86_400_000 },
    })
    expect(loadConfig({ SMTP_URL: 'smtp://mail.x.org:587', MAIL_FROM: 'stats@x.org' }).mail?.from).toBe(
      'stats@x.org',
    )
  })

  it('sends from pathlight@ the host of BASE_URL by default', () => {
    expect(
      loadConfig({ SMTP_URL: 'smtp://localhost:25', BASE_URL: 'https://stats.example.org/' }).mail?.from,
    ).toBe('Pathlight <pathlight@stats.example.org>')
  })

  it('has no mail without SMTP_URL', () => {
    expect(loadConfig({ MAIL_FROM: 'stats@x.org' }).mail).toBeUndefined()
  })

  it.each([
    ['SMTP_URL', 'http://mail.x.org'],
    ['SMTP_URL', 'mail.x.org:587'],
    ['MAIL_FROM', 'not an address'],
    ['MAIL_FROM', 'Stats <stats>'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://localhost', [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ SMTP_URL: 'smtp://localhost', [name]: value })).toThrow(new RegExp(`${name}:`))
  })

  it('refuses features plainly without mail: 503 with the reason', () => {
    expect(mailUnavailable()).toBeInstanceOf(AppError)
    expect(mailUnavailable()).toMatchObject({
      status: 503,
      message: 'E-mail is not configured: set SMTP_URL',
    })
    expect(() => requireMail(undefined)).toThrow('E-mail is not configured: set SMTP_URL')
  })
})
