/**
 * The metadata store's migrations, in order. Applied at start by `migrateMetadata`; each runs once
 * (Kysely's Migrator records them in `kysely_migration`). Never edit a released migration: add one.
 */
import type { Kysely } from 'kysely'
import { initial } from './001-initial.js'
import { siteAdmin } from './002-site-admin.js'
import { goals } from './003-goals.js'
import { webhooks } from './004-webhooks.js'
import { experiments } from './005-experiments.js'
import { apiKeyScopes } from './006-api-key-scopes.js'
import { siteRetention } from './007-site-retention.js'
import { funnels } from './008-funnels.js'
import { replaySettings } from './009-replay-settings.js'
import { twoFactor } from './010-two-factor.js'
import { segments } from './011-segments.js'
import { annotations } from './012-annotations.js'
import { mail } from './013-mail.js'
import { emailReports } from './014-email-reports.js'
import { alertRecipients } from './015-alert-recipients.js'
import { trackingSwitchesAndUsers } from './016-tracking-switches-and-users.js'
import { sso } from './017-sso.js'
import { mcpOAuth } from './018-mcp-oauth.js'
import { organizationOidc } from './019-organization-oidc.js'
import { heatmaps } from './020-heatmaps.js'
import { crawlerAlerts } from './021-crawler-alerts.js'

export type MetadataDialect = 'sqlite' | 'postgres'

export interface MetadataMigration {
  name: string
  up(db: Kysely<unknown>, dialect: MetadataDialect): Promise<void>
}

export const metadataMigrations: readonly MetadataMigration[] = [
  initial,
  siteAdmin,
  goals,
  webhooks,
  experiments,
  apiKeyScopes,
  siteRetention,
  funnels,
  replaySettings,
  twoFactor,
  segments,
  annotations,
  mail,
  emailReports,
  alertRecipients,
  trackingSwitchesAndUsers,
  sso,
  mcpOAuth,
  organizationOidc,
  heatmaps,
  crawlerAlerts,
]
