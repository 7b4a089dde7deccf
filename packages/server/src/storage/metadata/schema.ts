/**
 * Row types of the metadata store, as Kysely sees them. Booleans are written as 0/1 (SQLite has no
 * boolean; PostgreSQL accepts '1'/'0' for boolean columns) and read back through `toBool`.
 * Timestamps of Pathlight's own tables are ISO 8601 UTC strings with milliseconds.
 * The Better Auth tables (`user`, `session`, `account`, `verification`) belong to Better Auth;
 * only the columns Pathlight reads are typed here.
 */
import type { Role } from '@pathlight/protocol'
import type { Generated } from 'kysely'
import type { AnnotationSchema } from './annotation-schema.js'
import type { EmailReportSchema } from './email-report-schema.js'
import type { MailSchema } from './mail-schema.js'
import type { SegmentSchema } from './segment-schema.js'
import type { SsoSchema } from './sso-schema.js'
import type { UserSchema } from './user-schema.js'
import type { WebhookSchema } from './webhook-schema.js'

export type DbBool = number | boolean

export interface UserTable {
  id: string
  name: string
  email: string
  emailVerified: DbBool
  image: string | null
  createdAt: Date | string
  updatedAt: Date | string
}

export interface InstanceSettingTable {
  key: string
  value: string
}

export interface OrganizationTable {
  id: string
  name: string
  slug: string
  created_by: string
  created_at: string
}

/** A member's role: the protocol's enum, which the API documents. */
export type { Role }

export interface MemberTable {
  id: string
  organization_id: string
  user_id: string
  role: Role
  created_at: string
}

export interface SiteTable {
  site_id: Generated<number>
  id: string
  organization_id: string
  name: string
  domain: string
  created_by: string
  created_at: string
  updated_at: string
  public: DbBool
  salt_user_ids: DbBool
  block_bots: DbBool
  session_replay: DbBool
  web_vitals: DbBool
  track_errors: DbBool
  track_outbound: DbBool
  track_url_params: DbBool
  /** JSON array of IP addresses / CIDR ranges. */
  excluded_ips: string
  /** JSON array of ISO 3166-1 alpha-2 codes, upper case. */
  excluded_countries: string
  /** Pageviews per calendar month (UTC); null = unlimited. */
  monthly_pageview_limit: number | null
  /** Read-only sharing key (migration 002); null when none. */
  private_link_key: string | null
  /** Whole UTC days of events kept (migration 007); null: the operator's default (RETENTION_DAYS). */
  retention_days: number | null
  /** Share of sessions recorded when session_replay is on, 0-1 (migration 009). */
  replay_sample_rate: number
  /** Whole days a recording is kept after it is received (migration 009). */
  replay_retention_days: number
  /** Switches of Rybbit's web SDK (migration 016), read by `GET /api/site/tracking-config/{siteId}`. */
  track_initial_pageview: DbBool
  track_spa_navigation: DbBool
  track_button_clicks: DbBool
  track_copy: DbBool
  track_form_interactions: DbBool
  /** Heatmap clicks recorded (migration 020). */
  heatmaps: DbBool
}

export interface ApiKeyTable {
  id: string
  user_id: string
  name: string
  /** The first characters of the key, shown in listings so users can tell keys apart. */
  prefix: string
  /** Lowercase hex SHA-256 of the whole key. */
  key_hash: string
  /** `track`, `read` or `full` (`auth/key-scope.ts`); `full` for keys made before migration 006. */
  scope: string
  created_at: string
  /** ISO 8601 UTC; null: never expires. */
  expires_at: string | null
  last_used_at: string | null
}

export interface UserIdSaltTable {
  /** UTC day, YYYY-MM-DD. */
  day: string
  /** 32 random bytes, hex. */
  salt: string
  created_at: string
}

export interface AuditLogTable {
  seq: Generated<number>
  id: string
  organization_id: string
  site_id: number | null
  actor_user_id: string
  /** e.g. 'site.created', 'site.config_changed', 'member.role_changed' (see audit/audit-log.ts). */
  action: string
  /** JSON object with the action's particulars. */
  details: string
  created_at: string
}

export interface GoalTable {
  goal_id: Generated<number>
  /** The site's numeric id; the goal goes when the site does (ON DELETE CASCADE). */
  site_id: number
  name: string
  /** 'path' or 'event' (see goals/goal.ts). */
  goal_type: string
  /** JSON object: `{pathPattern}` for path goals, `{eventName, eventPropertyKey?, eventPropertyValue?}`. */
  config: string
  created_at: string
  updated_at: string
}

export interface ExperimentTable {
  experiment_id: Generated<number>
  /** The site's numeric id; the experiment goes when the site does (ON DELETE CASCADE). */
  site_id: number
  /** Slug `^[a-z0-9][a-z0-9_-]{0,63}$`, unique per site; events name it in `properties.experiment`. */
  experiment_key: string
  name: string
  description: string | null
  /** JSON array of `{name, control}` (see experiments/experiment.ts), exactly one control. */
  variants: string
  /** The goal measuring success; null once that goal is deleted (ON DELETE SET NULL). */
  goal_id: number | null
  /** 'draft', 'running' or 'completed'. */
  status: string
  created_at: string
  updated_at: string
}

export interface FunnelTable {
  funnel_id: Generated<number>
  /** The site's numeric id; the funnel goes when the site does (ON DELETE CASCADE). */
  site_id: number
  name: string
  /** JSON array of 2-10 steps (see funnels/funnel.ts). */
  steps: string
  created_at: string
  updated_at: string
}

export interface MetadataSchema
  extends WebhookSchema,
    MailSchema,
    SegmentSchema,
    EmailReportSchema,
    AnnotationSchema,
    UserSchema,
    SsoSchema {
  user: UserTable
  instance_setting: InstanceSettingTable
  organization: OrganizationTable
  member: MemberTable
  site: SiteTable
  api_key: ApiKeyTable
  user_id_salt: UserIdSaltTable
  audit_log: AuditLogTable
  goal: GoalTable
  experiment: ExperimentTable
  funnel: FunnelTable
}

/** Reads a boolean column on either dialect (SQLite 0/1, PostgreSQL true/false). */
export const toBool = (value: DbBool): boolean => value === true || value === 1
/** Writes a boolean column on either dialect. */
export const fromBool = (value: boolean): number => (value ? 1 : 0)
