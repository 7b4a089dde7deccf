/**
 * E-mail in the dashboard end to end: Chromium (playwright-core) on the built app served by the real
 * server on SQLite + chDB, a real SMTP server in this process, links followed as a person would from
 * the messages that arrive. "Forgot password?" mails a link whose page sets a new password; an owner
 * invites by e-mail from the members page, and the invited person signs up from the link and joins;
 * an invitation is revoked. The mails' HTML is rendered in Chromium: the README's pictures
 * (`docs/images/mail-*.png` when UPDATE_DOCS_IMAGES=1, else under `os.tmpdir()`).
 */
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMAIL_VERIFICATION_SUBJECT } from '../src/mail/templates/email-verification.js'
import { collectPageErrors, launchChromium, newDashboardContext } from '../src/testing/browser.js'
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from '../src/testing/smtp-receiver.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const images =
  process.env.UPDATE_DOCS_IMAGES === '1'
    ? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/images')
    : os.tmpdir()

let t: TestInstance
let receiver: SmtpReceiver
let browser: Browser
let page: Page
let base: string
const pageErrors: string[] = []

/** A free loopback port: the links in mails name BASE_URL, so it must be known before the start. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

beforeAll(async () => {
  await ensureDashboardBuilt()
  receiver = await startSmtpReceiver({ ignoreSubjects: [EMAIL_VERIFICATION_SUBJECT] })
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  t = await openTestInstance({
    env: {
      SMTP_URL: receiver.url,
      MAIL_POLL_MS: '50',
      BASE_URL: base,
      MAIL_FROM: 'Pathlight <stats@acme.example>',
    },
  })
  await t.app.listen({ port, host: '127.0.0.1' })
  browser = await launchChromium()
  page = await (await newDashboardContext(browser, base)).newPage()
  page.setDefaultTimeout(10_000)
  collectPageErrors(page, pageErrors, 'ada')
})

afterAll(async () => {
  await browser?.close()
  await t?.close()
  await receiver?.close()
})

const heading = (p: Page, name: string | RegExp) => p.getByRole('heading', { level: 1, name })
/**
 * The next message to arrive after this call: called before the action that mails, awaited after it,
 * since the mail may arrive before the page has shown that it was sent.
 */
const expectMail = (): (() => Promise<ReceivedMail>) => {
  const count = receiver.received.length + 1
  return async () => (await receiver.waitFor(count))[count - 1] as ReceivedMail
}
const linkIn = (mail: ReceivedMail) =>
  /(http:\/\/\S+)/.exec(mail.text.split('\n').find((l) => l.includes(': http')) ?? '')?.[1] ?? ''

/** Render a mail's HTML part in Chromium (no network) and save its picture in `images`. */
async function picture(mail: ReceivedMail, file: string) {
  const context = await browser.newContext({
    viewport: { width: 640, height: 560 },
    javaScriptEnabled: false,
  })
  const view = await context.newPage()
  await view.route('**/*', (route) => route.abort())
  await view.setContent(mail.html)
  await view.screenshot({ path: path.join(images, file), fullPage: true })
  await context.close()
}

describe('e-mail in the dashboard', () => {
  it('mails a reset link from "Forgot password?" whose page sets the new password', async () => {
    await t.signUp('ada@example.com')
    await page.goto('/sign-in')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await heading(page, 'Reset your password').waitFor()
    await page.getByLabel('Email').fill('ada@example.com')
    const mailed = expectMail()
    await page.getByRole('button', { name: 'Send the link' }).click()
    await page.getByRole('status').getByText('a link to choose a new password is on its way').waitFor()

    const mail = await mailed()
    expect(mail.to).toEqual(['ada@example.com'])
    const link = linkIn(mail)
    expect(link.startsWith(`${base}/api/auth/reset-password/`)).toBe(true)
    await picture(mail, 'mail-password-reset.png')

    await page.goto(link)
    await heading(page, 'Choose a new password').waitFor()
    expect(new URL(page.url()).pathname).toBe('/reset-password')
    await page.getByLabel('New password').fill('a new and longer passphrase')
    await page.getByRole('button', { name: 'Set the password' }).click()
    await page.getByRole('status').getByText('Your password is set').waitFor()

    // The link works once.
    await page.goto(link)
    await page.getByText('This link is not valid any more').waitFor()

    await page.goto('/sign-in')
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByLabel('Password').fill('a new and longer passphrase')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await heading(page, 'Welcome to Pathlight').waitFor()
  })

  it('invites by e-mail from the members page; the link signs the invitee up and in, and they join', async () => {
    await page.getByLabel('Organization name').fill('Acme')
    await page.getByRole('button', { name: 'Create organization' }).click()
    await heading(page, 'Add your first site').waitFor()
    const organizationId = /\/organizations\/([^/]+)/.exec(page.url())?.[1] ?? ''
    await page.goto(`/organizations/${organizationId}/members`)
    await heading(page, 'Members').waitFor()

    await page.getByLabel('Address to invite').fill('bob@example.com')
    await page.getByLabel('Role to give').selectOption('admin')
    const mailed = expectMail()
    await page.getByRole('button', { name: 'Invite', exact: true }).click()
    await page.getByText('Invitation sent to bob@example.com.').waitFor()
    await page.getByRole('row', { name: /bob@example\.com admin/ }).waitFor()

    const mail = await mailed()
    expect(mail.to).toEqual(['bob@example.com'])
    expect(mail.subject).toBe('Test User invited you to Acme on Pathlight')
    const link = linkIn(mail)
    expect(link.startsWith(`${base}/invitations/`)).toBe(true)
    await picture(mail, 'mail-invitation.png')

    const bobContext = await newDashboardContext(browser, base)
    const bob = await bobContext.newPage()
    collectPageErrors(bob, pageErrors, 'bob')
    await bob.goto(link)
    await heading(bob, 'Invitation').waitFor()
    await bob.getByText('invited bob@example.com to the organization Acme as admin').waitFor()
    await bob.getByRole('link', { name: 'create an account' }).click()
    await heading(bob, 'Create your account').waitFor()
    await bob.getByLabel('Name').fill('Bob')
    await bob.getByLabel('Email').fill('bob@example.com')
    await bob.getByLabel('Password').fill('bobs own passphrase')
    await bob.getByRole('button', { name: 'Create account' }).click()
    await heading(bob, 'Invitation').waitFor()
    await bob.getByRole('button', { name: 'Join Acme' }).click()
    await heading(bob, 'Acme').waitFor()
    expect(new URL(bob.url()).pathname).toBe(`/organizations/${organizationId}`)

    await page.reload()
    await page
      .getByRole('row', { name: /bob@example\.com/ })
      .getByRole('combobox')
      .waitFor()
    expect(
      await page
        .getByRole('row', { name: /bob@example\.com/ })
        .getByRole('combobox')
        .inputValue(),
    ).toBe('admin')
    await page.getByText('None.').waitFor()
  })

  it('revokes a pending invitation, and its link then says so', async () => {
    await page.getByLabel('Address to invite').fill('carol@example.com')
    const mailed = expectMail()
    await page.getByRole('button', { name: 'Invite', exact: true }).click()
    const row = page.getByRole('row', { name: /carol@example\.com/ })
    await row.waitFor()
    const link = linkIn(await mailed())
    await row.getByRole('button', { name: 'Revoke' }).click()
    await row.getByRole('button', { name: 'Revoke' }).click() // the confirmation
    await page.getByText('None.').waitFor()
    await page.goto(link)
    await page.getByText('This invitation was already revoked').waitFor()
    expect(pageErrors).toEqual([])
  })
})
