/**
 * OAuth access tokens of MCP clients as keys: `withOAuthTokens(apiKeys, db)` verifies a bearer token
 * that is not an API key (`pl_...`) against the OAuth provider's `oauthAccessToken` table (stored as
 * its SHA-256, `mcp-oauth-plugin.ts`). A live token (not expired, not revoked) verifies as a key of
 * its user with scope `mcp:write` when it was granted `mcp:write`, else `mcp:read`, and the key id
 * `oauth:<client id>`; so the caller, the key budget and the MCP server treat it like such a key.
 * Tokens are looked up each time (one indexed read): an expired or revoked one stops at once.
 */

import { sql } from 'kysely'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { ApiKeys, VerifiedKey } from './api-keys.js'
import { hashOAuthToken } from './mcp-oauth-plugin.js'

/** The API key prefix: tokens with it are API keys, never OAuth tokens. */
const API_KEY_PREFIX = 'pl_'

interface AccessTokenRow {
  clientId: string
  userId: string | null
  scopes: unknown
  expiresAt: unknown
  revoked: unknown
}

const asDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value))

const scopesOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.map(String)
  try {
    const parsed: unknown = JSON.parse(String(value))
    return Array.isArray(parsed) ? parsed.map(String) : []
  } catch {
    return []
  }
}

/** Verify an OAuth access token. @returns the token as a key, or null for an unknown, expired or revoked one */
export async function verifyOAuthToken(
  db: MetadataDb,
  token: string,
  now = Date.now(),
): Promise<VerifiedKey | null> {
  const result = await sql<AccessTokenRow>`
    select "clientId", "userId", "scopes", "expiresAt", "revoked" from "oauthAccessToken"
    where "token" = ${hashOAuthToken(token)}`.execute(db)
  const row = result.rows[0]
  if (!row?.userId) return null
  const expiresAt = asDate(row.expiresAt)
  if (asDate(row.revoked) !== null || expiresAt === null || expiresAt.getTime() <= now) return null
  const scopes = scopesOf(row.scopes)
  if (!scopes.includes('mcp:read') && !scopes.includes('mcp:write')) return null
  return {
    userId: row.userId,
    keyId: `oauth:${row.clientId}`,
    scope: scopes.includes('mcp:write') ? 'mcp:write' : 'mcp:read',
  }
}

/** `apiKeys` whose `verify` also accepts OAuth access tokens of MCP clients. */
export function withOAuthTokens(apiKeys: ApiKeys, db: MetadataDb, clock: () => number = Date.now): ApiKeys {
  return {
    ...apiKeys,
    verify: async (token) =>
      token.startsWith(API_KEY_PREFIX) ? apiKeys.verify(token) : verifyOAuthToken(db, token, clock()),
  }
}
