/** Every MCP tool, in the order `tools/list` answers them: the read tools, then the write tools. */
import type { McpTool } from './mcp-tool.js'
import { query } from './tools/query-tool.js'
import { getLiveVisitors, getSession, getStats, getWebVitals, listSessions } from './tools/report-tools.js'
import {
  getError,
  getFunnel,
  getJourneys,
  getRetention,
  listAnnotations,
  listErrors,
  listGoals,
  listSegments,
  listSites,
} from './tools/site-tools.js'
import { createAnnotation, createGoal, createSegment } from './tools/write-tools.js'

export const mcpTools: readonly McpTool[] = [
  listSites,
  query,
  getStats,
  listGoals,
  getFunnel,
  getRetention,
  getJourneys,
  listErrors,
  getError,
  getWebVitals,
  getLiveVisitors,
  listSessions,
  getSession,
  listAnnotations,
  listSegments,
  createAnnotation,
  createSegment,
  createGoal,
]
