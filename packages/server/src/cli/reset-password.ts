/**
 * `pathlight reset-password EMAIL`: prints a one-time link that lets the account set a new password
 * (Better Auth's reset token, valid 1 hour; using it ends the account's sessions), for operators whose
 * instance sends no e-mail. Reads the same configuration as `serve` (DATA_DIR or DATABASE_URL,
 * BASE_URL, AUTH_SECRET). Without BASE_URL the link names the address the service last started at
 * (its port, as `serve` recorded it), so that it works when run beside a server on another PORT;
 * without either, `http://HOST:PORT` of this environment.
 */
import crypto from 'node:crypto'
import path from 'node:path'
import { type Auth, createAuth, RESET_PASSWORD_TTL_SECONDS, resetPasswordPage } from '../auth/better-auth.js'
import { createOriginPolicy } from '../auth/origin-policy.js'
import type { Config } from '../config.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { openMetadataStore } from '../storage/metadata/db.js'
import { getOrCreateSecret, getSetting, SERVED_URL_SETTING } from '../storage/metadata/instance-settings.js'

/**
 * A reset link for the account with this address (any case), stored as Better Auth stores the links
 * it mails: through the dashboard's reset page.
 * @throws Error when no account has the address
 */
export async function resetPasswordLink(
  deps: { auth: Auth; db: MetadataDb; baseUrl: string },
  email: string,
): Promise<string> {
  const address = email.trim().toLowerCase()
  const user = await deps.db.selectFrom('user').select('id').where('email', '=', address).executeTakeFirst()
  if (!user) throw new Error(`No account with the address ${address}`)
  // Better Auth's own token shape (24 characters of [A-Za-z0-9]) and verification row.
  const token = Array.from({ length: 24 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('')
  const context = await deps.auth.$context
  await context.internalAdapter.createVerificationValue({
    value: user.id,
    identifier: `reset-password:${token}`,
    expiresAt: new Date(Date.now() + RESET_PASSWORD_TTL_SECONDS * 1000),
  })
  const callback = encodeURIComponent(resetPasswordPage(deps.baseUrl))
  return `${deps.baseUrl}/api/auth/reset-password/${token}?callbackURL=${callback}`
}

/** The command as it runs from the Pathlight folder (the `pathlight` bin is not on PATH). */
export const RESET_PASSWORD_USAGE = 'Usage: npx pathlight reset-password EMAIL (in the Pathlight folder)'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** Run the command: print the link, or throw with the reason (usage, unknown account). */
export async function runResetPassword(args: string[], config: Config): Promise<void> {
  const [email] = args
  if (!email || args.length !== 1) throw new Error(RESET_PASSWORD_USAGE)
  const store = await openMetadataStore(
    config.databaseUrl
      ? { postgres: config.databaseUrl }
      : { sqlite: path.join(config.dataDir, 'pathlight.db') },
  )
  try {
    const baseUrl = config.baseUrlConfigured
      ? config.baseUrl
      : ((await getSetting(store.db, SERVED_URL_SETTING)) ?? config.baseUrl)
    const auth = createAuth({
      store,
      secret: config.authSecret ?? (await getOrCreateSecret(store.db, 'auth_secret')),
      baseUrl,
      disableSignup: config.disableSignup,
      origins: createOriginPolicy(config),
      logLevel: 'silent',
    })
    const link = await resetPasswordLink({ auth, db: store.db, baseUrl }, email)
    console.log(
      `A one-time link to set a new password for ${email.trim().toLowerCase()} (valid ${RESET_PASSWORD_TTL_SECONDS / 60} minutes):\n${link}`,
    )
  } finally {
    await store.close()
  }
}
