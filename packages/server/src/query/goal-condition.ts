/**
 * A goal as a condition on one event row (see `goals/goal.ts` for what each goal matches). Values are
 * bound under names prefixed with the given name (`g0_path`, `g0_event`, ...).
 */
import type { GoalDefinition } from '../goals/goal.js'
import type { SqlFragment } from './compiled-query.js'
import { eventTypeConditions } from './metrics.js'

/** JSON types of a number in a properties object (ClickHouse `JSONType`). */
const NUMERIC_JSON = "('Int64', 'UInt64', 'Double')"

/** @param name prefix of the parameters, unique within the query */
export function goalCondition(goal: GoalDefinition, name: string): SqlFragment {
  if (goal.goalType === 'path') {
    const { pathPattern: pattern, scrollDepth } = goal.config
    const prefix = pattern.endsWith('*')
    const path = prefix ? `startsWith(pathname, {${name}_path:String})` : `pathname = {${name}_path:String}`
    const params: Record<string, unknown> = { [`${name}_path`]: prefix ? pattern.slice(0, -1) : pattern }
    if (scrollDepth === undefined) return { sql: `${eventTypeConditions.pageview} AND ${path}`, params }
    params[`${name}_depth`] = scrollDepth
    return {
      sql: `${eventTypeConditions.engagement} AND ${path} AND scroll_depth >= {${name}_depth:UInt8}`,
      params,
    }
  }
  const { eventName, eventPropertyKey, eventPropertyValue } = goal.config
  const params: Record<string, unknown> = { [`${name}_event`]: eventName }
  let sql = `${eventTypeConditions.custom_event} AND event_name = {${name}_event:String}`
  if (eventPropertyKey !== undefined && eventPropertyValue !== undefined) {
    const key = `{${name}_key:String}`
    params[`${name}_key`] = eventPropertyKey
    params[`${name}_text`] = String(eventPropertyValue)
    const number = typeof eventPropertyValue === 'number' ? eventPropertyValue : numeric(eventPropertyValue)
    const branches = [
      `JSONType(properties, ${key}) = 'String', JSONExtractString(properties, ${key}) = {${name}_text:String}`,
      `JSONType(properties, ${key}) = 'Bool', JSONExtractRaw(properties, ${key}) = {${name}_text:String}`,
    ]
    if (number !== null) {
      params[`${name}_number`] = number
      branches.push(
        `JSONType(properties, ${key}) IN ${NUMERIC_JSON}, JSONExtractFloat(properties, ${key}) = {${name}_number:Float64}`,
      )
    }
    sql += ` AND multiIf(${branches.join(', ')}, 0)`
  }
  return { sql, params }
}

/** A string that is a plain decimal number ('3', '-2.5'), as that number; else null. */
function numeric(text: string): number | null {
  return /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text)) ? Number(text) : null
}
