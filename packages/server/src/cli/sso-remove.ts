/**
 * `pathlight sso-remove EMAIL`: applies a removal at the identity provider at once (`auth/sso-remove.ts`):
 * the account leaves the SSO organization and its sessions end. Reads the same configuration as `serve`
 * (DATA_DIR or DATABASE_URL). The ended sessions sign the account out of a running server at once; the
 * server's cached role of the account expires within 30 seconds.
 */
import path from 'node:path'
import { removeSsoAccess } from '../auth/sso-remove.js'
import type { Config } from '../config.js'
import { openMetadataStore } from '../storage/metadata/db.js'

export const SSO_REMOVE_USAGE = 'Usage: npx pathlight sso-remove EMAIL (in the Pathlight folder)'

/** Run the command: print what it did, or throw with the reason (usage, unknown account). */
export async function runSsoRemove(args: string[], config: Config): Promise<void> {
  const [email] = args
  if (!email || args.length !== 1) throw new Error(SSO_REMOVE_USAGE)
  const store = await openMetadataStore(
    config.databaseUrl
      ? { postgres: config.databaseUrl }
      : { sqlite: path.join(config.dataDir, 'pathlight.db') },
  )
  try {
    const removal = await removeSsoAccess({ db: store.db }, email)
    const membership =
      removal.membership?.kind === 'removed'
        ? `removed from the SSO organization (was ${removal.membership.from})`
        : removal.membership?.kind === 'kept_last_owner'
          ? 'kept in the SSO organization: it is its last owner'
          : 'not a member of the SSO organization'
    console.info(`${email}: ${membership}; ${removal.sessionsEnded} session(s) ended`)
  } finally {
    await store.close()
  }
}
