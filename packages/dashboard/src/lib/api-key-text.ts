/** API key scopes and expiries in words, and the expiry date a choice of the create form means. */
import type { ApiKey, ApiKeyScope } from '@pathlight/protocol'

/** Each scope's name and what a key of it may do, in the order the form offers them. */
export const scopeChoices = [
  {
    value: 'track',
    label: 'Track only',
    description:
      'Recommended for server-side tracking: may only send events (POST /api/track); harmless if it leaks.',
  },
  {
    value: 'read',
    label: 'Read',
    description: 'Reports, the v1 API and other reads; cannot change anything or send events.',
  },
  {
    value: 'logs',
    label: 'Server logs',
    description:
      "For a log shipper on your web server: may only send a site's access log (POST /api/sites/{id}/logs).",
  },
  {
    value: 'full',
    label: 'Full access',
    description: 'Everything you may do, including changes; keep it as safe as your password.',
  },
  {
    value: 'mcp:read',
    label: 'AI assistant (read)',
    description: 'Opens the MCP server (/api/mcp) for an AI assistant: its read tools only.',
  },
  {
    value: 'mcp:write',
    label: 'AI assistant (read and write)',
    description:
      'The MCP server with its write tools too (annotations, segments, goals, where you are an admin).',
  },
] as const satisfies readonly { value: ApiKeyScope; label: string; description: string }[]

/** 'Track only', 'Read', 'Server logs', 'Full access'. */
export const scopeLabel = (scope: ApiKeyScope): string =>
  scopeChoices.find((choice) => choice.value === scope)?.label ?? scope

const DAY_MS = 86_400_000

/** The expiries the create form offers: days from now, or never. */
export const expiryChoices = [
  { value: 'never', label: 'Never', days: null },
  { value: '30d', label: 'In 30 days', days: 30 },
  { value: '90d', label: 'In 90 days', days: 90 },
  { value: '1y', label: 'In 1 year', days: 365 },
] as const satisfies readonly { value: string; label: string; days: number | null }[]

export type ExpiryChoice = (typeof expiryChoices)[number]['value']

/**
 * The `expiresAt` to send for a choice made at `now` (epoch ms): ISO 8601 UTC exactly that many
 * days (of 24 hours) later, or null for 'never'.
 */
export function expiresAtFor(choice: ExpiryChoice, now: number): string | null {
  const days = expiryChoices.find((c) => c.value === choice)?.days ?? null
  return days === null ? null : new Date(now + days * DAY_MS).toISOString()
}

/** True once a key's expiry has passed at `now` (epoch ms); a key without one never expires. */
export const isExpired = (key: Pick<ApiKey, 'expiresAt'>, now: number): boolean =>
  key.expiresAt !== null && Date.parse(key.expiresAt) <= now
