/**
 * 018: OAuth for MCP clients (Better Auth's OAuth provider plugin, `auth/mcp-oauth-plugin.ts`): the
 * registered clients (`oauthClient`), protected resources and their links to clients
 * (`oauthResource`, `oauthClientResource`), refresh and access tokens (stored as hashes), the
 * consents users gave, and used client assertions. Columns, types and indexes are those Better Auth's
 * migration planner asks for, by dialect as in 001: booleans integer / boolean, dates date /
 * timestamptz, lists and JSON text / jsonb.
 */
import { type Kysely, sql } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Creates the OAuth provider's tables. */
export const mcpOAuth: MetadataMigration = {
  name: '018-mcp-oauth',
  async up(db: Kysely<unknown>, dialect) {
    const postgres = dialect === 'postgres'
    const bool = sql.raw(postgres ? 'boolean' : 'integer')
    const date = sql.raw(postgres ? 'timestamptz' : 'date')
    const json = sql.raw(postgres ? 'jsonb' : 'text')
    const falseValue = postgres ? sql`false` : 0
    const emptyList = postgres ? sql`'[]'::jsonb` : '[]'

    await db.schema
      .createTable('oauthClient')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('clientId', 'text', (c) => c.notNull().unique())
      .addColumn('clientSecret', 'text')
      .addColumn('clientDiscoveryId', 'text')
      .addColumn('disabled', bool, (c) => c.defaultTo(falseValue))
      .addColumn('skipConsent', bool)
      .addColumn('enableEndSession', bool)
      .addColumn('subjectType', 'text')
      .addColumn('scopes', json)
      .addColumn('clientCredentialsScopes', json, (c) => c.defaultTo(emptyList))
      .addColumn('userId', 'text', (c) => c.references('user.id').onDelete('cascade'))
      .addColumn('createdAt', date)
      .addColumn('updatedAt', date)
      .addColumn('name', 'text')
      .addColumn('uri', 'text')
      .addColumn('icon', 'text')
      .addColumn('contacts', json)
      .addColumn('tos', 'text')
      .addColumn('policy', 'text')
      .addColumn('softwareId', 'text')
      .addColumn('softwareVersion', 'text')
      .addColumn('softwareStatement', 'text')
      .addColumn('redirectUris', json, (c) => c.notNull())
      .addColumn('postLogoutRedirectUris', json)
      .addColumn('backchannelLogoutUri', 'text')
      .addColumn('backchannelLogoutSessionRequired', bool)
      .addColumn('tokenEndpointAuthMethod', 'text')
      .addColumn('applicationType', 'text')
      .addColumn('jwks', 'text')
      .addColumn('jwksUri', 'text')
      .addColumn('grantTypes', json)
      .addColumn('responseTypes', json)
      .addColumn('requirePKCE', bool)
      .addColumn('dpopBoundAccessTokens', bool, (c) => c.defaultTo(falseValue))
      .addColumn('referenceId', 'text')
      .addColumn('metadata', json)
      .execute()
    await db.schema.createIndex('oauthClient_userId_idx').on('oauthClient').column('userId').execute()
    await db.schema
      .createTable('oauthResource')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('identifier', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('accessTokenTtl', 'integer')
      .addColumn('refreshTokenTtl', 'integer')
      .addColumn('signingAlgorithm', 'text')
      .addColumn('signingKeyId', 'text')
      .addColumn('allowedScopes', json)
      .addColumn('customClaims', json)
      .addColumn('dpopBoundAccessTokensRequired', bool, (c) => c.defaultTo(falseValue))
      .addColumn('disabled', bool, (c) => c.defaultTo(falseValue))
      .addColumn('createdAt', date)
      .addColumn('updatedAt', date)
      .addColumn('policyVersion', 'integer', (c) => c.defaultTo(1))
      .addColumn('metadata', json)
      .execute()
    await db.schema
      .createTable('oauthClientResource')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('clientId', 'text', (c) =>
        c.notNull().references('oauthClient.clientId').onDelete('cascade'),
      )
      .addColumn('resourceId', 'text', (c) =>
        c.notNull().references('oauthResource.identifier').onDelete('cascade'),
      )
      .addColumn('metadata', json)
      .addColumn('createdAt', date)
      .execute()
    await db.schema
      .createIndex('oauthClientResource_clientId_idx')
      .on('oauthClientResource')
      .column('clientId')
      .execute()
    await db.schema
      .createIndex('oauthClientResource_resourceId_idx')
      .on('oauthClientResource')
      .column('resourceId')
      .execute()
    await db.schema
      .createTable('oauthRefreshToken')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('clientId', 'text', (c) =>
        c.notNull().references('oauthClient.clientId').onDelete('cascade'),
      )
      .addColumn('sessionId', 'text', (c) => c.references('session.id').onDelete('set null'))
      .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('referenceId', 'text')
      .addColumn('authorizationCodeId', 'text')
      .addColumn('resources', json)
      .addColumn('requestedUserInfoClaims', json)
      .addColumn('expiresAt', date)
      .addColumn('createdAt', date)
      .addColumn('revoked', date)
      .addColumn('rotatedAt', date)
      .addColumn('rotationReplayResponse', 'text')
      .addColumn('rotationReplayExpiresAt', date)
      .addColumn('authTime', date)
      .addColumn('confirmation', json)
      .addColumn('scopes', json, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('oauthRefreshToken_clientId_idx')
      .on('oauthRefreshToken')
      .column('clientId')
      .execute()
    await db.schema
      .createIndex('oauthRefreshToken_sessionId_idx')
      .on('oauthRefreshToken')
      .column('sessionId')
      .execute()
    await db.schema
      .createIndex('oauthRefreshToken_userId_idx')
      .on('oauthRefreshToken')
      .column('userId')
      .execute()
    await db.schema
      .createIndex('oauthRefreshToken_authorizationCodeId_idx')
      .on('oauthRefreshToken')
      .column('authorizationCodeId')
      .execute()
    await db.schema
      .createTable('oauthAccessToken')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token', 'text', (c) => c.unique())
      .addColumn('clientId', 'text', (c) =>
        c.notNull().references('oauthClient.clientId').onDelete('cascade'),
      )
      .addColumn('sessionId', 'text', (c) => c.references('session.id').onDelete('set null'))
      .addColumn('userId', 'text', (c) => c.references('user.id').onDelete('cascade'))
      .addColumn('referenceId', 'text')
      .addColumn('authorizationCodeId', 'text')
      .addColumn('resources', json)
      .addColumn('requestedUserInfoClaims', json)
      .addColumn('refreshId', 'text', (c) => c.references('oauthRefreshToken.id').onDelete('cascade'))
      .addColumn('expiresAt', date)
      .addColumn('createdAt', date)
      .addColumn('revoked', date)
      .addColumn('confirmation', json)
      .addColumn('scopes', json, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('oauthAccessToken_clientId_idx')
      .on('oauthAccessToken')
      .column('clientId')
      .execute()
    await db.schema
      .createIndex('oauthAccessToken_sessionId_idx')
      .on('oauthAccessToken')
      .column('sessionId')
      .execute()
    await db.schema
      .createIndex('oauthAccessToken_userId_idx')
      .on('oauthAccessToken')
      .column('userId')
      .execute()
    await db.schema
      .createIndex('oauthAccessToken_authorizationCodeId_idx')
      .on('oauthAccessToken')
      .column('authorizationCodeId')
      .execute()
    await db.schema
      .createIndex('oauthAccessToken_refreshId_idx')
      .on('oauthAccessToken')
      .column('refreshId')
      .execute()
    await db.schema
      .createTable('oauthConsent')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('clientId', 'text', (c) =>
        c.notNull().references('oauthClient.clientId').onDelete('cascade'),
      )
      .addColumn('userId', 'text', (c) => c.references('user.id').onDelete('cascade'))
      .addColumn('referenceId', 'text')
      .addColumn('resources', json)
      .addColumn('requestedUserInfoClaims', json)
      .addColumn('scopes', json, (c) => c.notNull())
      .addColumn('createdAt', date)
      .addColumn('updatedAt', date)
      .execute()
    await db.schema.createIndex('oauthConsent_clientId_idx').on('oauthConsent').column('clientId').execute()
    await db.schema.createIndex('oauthConsent_userId_idx').on('oauthConsent').column('userId').execute()
    await db.schema
      .createTable('oauthClientAssertion')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('expiresAt', date, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('oauthClientResource_client_resource_uidx')
      .on('oauthClientResource')
      .columns(['clientId', 'resourceId'])
      .unique()
      .execute()
  },
}
