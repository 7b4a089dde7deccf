/**
 * The audit trail of MCP tool calls: one `mcp.tool_called` entry per call, in the organization of the
 * site the call named (only when the caller is a member there, so an entry never reveals a site to
 * another organization), or, for a call without a site (`list_sites`), in each of the caller's
 * organizations. Details: the tool, the key id or `oauth:<client id>`, the outcome's status.
 */
import { recordAudit } from '../audit/audit-log.js'
import { roleIn } from '../organizations/organizations.js'
import { findSite } from '../sites/sites.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import type { McpCaller } from './mcp-caller.js'

export interface ToolCallRecord {
  tool: string
  siteId?: number
  /** The HTTP status of the route the tool called (200 on success). */
  status: number
}

/** Record one tool call. Never throws for a site the caller cannot read: nothing is recorded then. */
export async function auditToolCall(db: MetadataDb, caller: McpCaller, call: ToolCallRecord): Promise<void> {
  const details = { tool: call.tool, keyId: caller.keyId, scope: caller.scope, status: call.status }
  if (call.siteId !== undefined) {
    const site = Number.isSafeInteger(call.siteId) ? await findSite(db, call.siteId) : undefined
    if (!site || (await roleIn(db, caller.userId, site.organization_id)) === null) return
    await recordAudit(db, {
      organizationId: site.organization_id,
      siteId: site.site_id,
      actorUserId: caller.userId,
      action: 'mcp.tool_called',
      details,
    })
    return
  }
  const organizations = await db
    .selectFrom('member')
    .select('organization_id')
    .where('user_id', '=', caller.userId)
    .execute()
  for (const { organization_id } of organizations) {
    await recordAudit(db, {
      organizationId: organization_id,
      actorUserId: caller.userId,
      action: 'mcp.tool_called',
      details,
    })
  }
}
