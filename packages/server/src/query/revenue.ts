/**
 * Revenue from custom events whose properties carry `revenue` (a JSON number, or a decimal string) and
 * `currency` (an ISO 4217 code, upper-cased; events without a valid 3-letter code are left out). Amounts
 * are never converted between currencies: every figure is per currency. Sums are exact decimals
 * (`money.ts`), each figure rounded once to the currency's minor unit (ISO 4217 exponent), half away
 * from zero, so identical calls answer identically.
 * - `totals`: per currency, the revenue, the number of revenue events, the visitors of the scope
 *   (all counted visitors, not only paying ones) and `revenue_per_visitor` = revenue / those visitors;
 * - `byEventName`, `byPathname`: per currency and name / path, revenue and events, largest first;
 * - `series`: per bucket (hour, day, week, month in the zone; every bucket present) and currency.
 * The answer is the protocol's `RevenueReport`.
 */
import type { RevenueReport } from '@pathlight/protocol'
import type { EventsStore } from '../storage/events/events-store.js'
import type { CompiledQuery } from './compiled-query.js'
import { VISITOR_KEY } from './metrics.js'
import { AMOUNT_SCALE, moneyOf } from './money.js'
import { filtersOf, type ReportScope, SCOPE_SQL, scopeOf } from './report-scope.js'
import { runReport } from './run-report.js'
import { sessionFilterRestriction } from './sessions-subquery.js'
import { type BucketUnit, bucketExpressions, bucketStarts } from './time-buckets.js'

/**
 * The amount as an exact decimal of AMOUNT_SCALE fractional digits (further digits cut off), from a
 * JSON number's text or a decimal string; null when it is neither or has more than 26 whole digits.
 * Summed as Decimal256, which no realistic total overflows.
 */
export const AMOUNT = `toDecimal256(toDecimal128OrNull(JSONExtractRaw(properties, 'revenue'), ${AMOUNT_SCALE}), ${AMOUNT_SCALE})`
/** The same amount from a decimal string (`"12.50"`). */
export const AMOUNT_TEXT = `toDecimal256(toDecimal128OrNull(JSONExtractString(properties, 'revenue'), ${AMOUNT_SCALE}), ${AMOUNT_SCALE})`
/** An event's currency code as stored in its properties, upper-cased (not checked). */
export const CURRENCY = "upper(JSONExtractString(properties, 'currency'))"

/** The scope's revenue rows, as a subquery with columns amount, currency, event_name, pathname, bucket. */
function revenueRows(scope: ReportScope, unit: BucketUnit): CompiledQuery {
  const filters = filtersOf(scope)
  const where = [SCOPE_SQL, "type = 'custom_event'"]
  if (filters.event) where.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) where.push(restriction)
  return {
    sql: `SELECT coalesce(${AMOUNT}, ${AMOUNT_TEXT}) AS amount, ${CURRENCY} AS currency, event_name, pathname,
    ${bucketExpressions[unit]} AS bucket
  FROM events WHERE ${where.join(' AND ')}`,
    params: { ...scopeOf(scope).params, ...filters.params, tz: scope.params.timeZone },
  }
}

export function compileRevenue(
  scope: ReportScope,
  unit: BucketUnit,
): Record<keyof RevenueReport | 'visitors', CompiledQuery> {
  const rows = revenueRows(scope, unit)
  const valid = "amount IS NOT NULL AND match(currency, '^[A-Z]{3}$')"
  const from = `FROM (${rows.sql}) WHERE ${valid}`
  const filters = filtersOf(scope)
  const visitorsWhere = [SCOPE_SQL]
  if (filters.event) visitorsWhere.push(`(${filters.event})`)
  const restriction = sessionFilterRestriction(filters)
  if (restriction) visitorsWhere.push(restriction)
  return {
    totals: {
      sql: `SELECT currency, toString(sum(amount)) AS revenue, count() AS events ${from} GROUP BY currency ORDER BY sum(amount) DESC, currency`,
      params: rows.params,
    },
    byEventName: {
      sql: `SELECT currency, event_name, toString(sum(amount)) AS revenue, count() AS events ${from} GROUP BY currency, event_name ORDER BY sum(amount) DESC, event_name LIMIT 100`,
      params: rows.params,
    },
    byPathname: {
      sql: `SELECT currency, pathname, toString(sum(amount)) AS revenue, count() AS events ${from} GROUP BY currency, pathname ORDER BY sum(amount) DESC, pathname LIMIT 100`,
      params: rows.params,
    },
    series: {
      sql: `SELECT bucket, currency, toString(sum(amount)) AS revenue ${from} GROUP BY bucket, currency ORDER BY bucket, currency`,
      params: rows.params,
    },
    visitors: {
      sql: `SELECT uniqExact(${VISITOR_KEY}) AS visitors FROM events WHERE ${visitorsWhere.join(' AND ')}`,
      params: { ...scopeOf(scope).params, ...filters.params },
    },
  }
}

/** @throws AppError 400 naming `bucket` when the range has too many buckets */
export async function queryRevenue(
  events: EventsStore,
  scope: ReportScope,
  unit: BucketUnit,
): Promise<RevenueReport> {
  const starts = bucketStarts(scope.params, unit)
  const q = compileRevenue(scope, unit)
  const [totals, byEventName, byPathname, series, visitorRows] = await Promise.all([
    runReport<Record<string, unknown>>(events, q.totals, 'revenue-totals'),
    runReport<Record<string, unknown>>(events, q.byEventName, 'revenue-by-event-name'),
    runReport<Record<string, unknown>>(events, q.byPathname, 'revenue-by-pathname'),
    runReport<Record<string, unknown>>(events, q.series, 'revenue-series'),
    runReport<Record<string, unknown>>(events, q.visitors, 'revenue-visitors'),
  ])
  const visitors = Number(visitorRows[0]?.visitors ?? 0)
  const currencies = totals.map((t) => String(t.currency))
  const seriesByKey = new Map(
    series.map((s) => [
      `${Number(s.bucket) * 1000}|${String(s.currency)}`,
      moneyOf(String(s.revenue), String(s.currency)),
    ]),
  )
  return {
    totals: totals.map((t) => ({
      currency: String(t.currency),
      revenue: moneyOf(String(t.revenue), String(t.currency)),
      events: Number(t.events),
      visitors,
      revenue_per_visitor:
        visitors === 0 ? 0 : moneyOf(String(t.revenue), String(t.currency), BigInt(visitors)),
    })),
    byEventName: byEventName.map((r) => ({
      currency: String(r.currency),
      event_name: String(r.event_name),
      revenue: moneyOf(String(r.revenue), String(r.currency)),
      events: Number(r.events),
    })),
    byPathname: byPathname.map((r) => ({
      currency: String(r.currency),
      pathname: String(r.pathname),
      revenue: moneyOf(String(r.revenue), String(r.currency)),
      events: Number(r.events),
    })),
    series: starts.flatMap((t) =>
      currencies.map((currency) => ({
        time: new Date(t).toISOString(),
        currency,
        revenue: seriesByKey.get(`${t}|${currency}`) ?? 0,
      })),
    ),
  }
}
