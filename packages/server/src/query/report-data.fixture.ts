/**
 * Test support: a small data set with hand-computable answers for the report tests, and an embedded
 * chDB store holding it (one per test file: chDB allows one data directory per process).
 *
 * Site 7, March 2026 (UTC), four visitors, six sessions:
 *
 * | session | visitor | where, what                   | events (time UTC, type, pathname)                                  |
 * |---------|---------|-------------------------------|--------------------------------------------------------------------|
 * | s1      | u1      | US Chrome Windows desktop,    | 03-10 10:00:00.000 pageview /, referrer google (Organic Search)     |
 * |         |         |                               | 10:00:30.000 pageview /pricing                                     |
 * |         |         |                               | 10:01:10.500 custom_event signup {"plan":"pro","seats":3} /pricing  |
 * |         |         |                               | 10:02:05.900 pageview /docs/intro   -> 125 s, 3 pageviews          |
 * | s2      | u1      | same, referrer t.co (Organic Social) | 03-12 09:00 pageview /blog/post-1 -> bounce, 0 s           |
 * | s3      | u2      | GB Firefox macOS desktop, Direct | 03-11 14:00:00 pageview /pricing                                |
 * |         |         |                               | 14:00:20 error TypeError "Cannot read ... ('x')" /pricing          |
 * |         |         |                               | 14:05:00 pageview /checkout                                        |
 * |         |         |                               | 14:05:30 custom_event signup {"plan":"free","seats":"3"} -> 330 s  |
 * | s4      | u3      | DE Safari iOS mobile, Direct  | 03-15 20:00:00 pageview /, 20:00:10 error ReferenceError "foo is   |
 * |         |         |                               | not defined", 20:00:15 error TypeError "Cannot read ..." -> bounce, 15 s |
 * | s5      | u3      | same, Direct                  | 03-20 08:00 custom_event newsletter {"confirmed":true} (no pageview) |
 * | s6      | u4      | US Chrome Android mobile,     | 03-25 12:00:00 pageview /blog/post-2, referrer news.ycombinator.com |
 * |         |         | Referral                      | 12:00:45 outbound (an interaction: not a bounce) -> 45 s           |
 *
 * Outside the range or the site (never counted): u1 on 02-28 23:59:59.999 and 04-01 00:00:00.000;
 * site 8 on 03-10. Totals for 2026-03-01..2026-03-31 UTC: 4 visitors, 6 sessions, 8 pageviews,
 * bounce rate 2/6, mean duration 515/6 s, 8/6 pages per session.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eventRow } from '../storage/events/event-row.fixture.js'
import type { EventRow } from '../storage/events/event-row.js'
import type { EventsStore } from '../storage/events/events-store.js'
import { copyEventsTemplate } from '../testing/events-template.js'
import { openTestEventsStore } from '../testing/test-events-store.js'
import { parseQueryParams } from './params.js'
import type { ReportScope } from './report-scope.js'

/** The fixture's site and its two error messages. */
export const SITE = 7

export const TYPE_ERROR = "Cannot read properties of undefined (reading 'x')"
export const REFERENCE_ERROR = 'foo is not defined'

const u1 = {
  user_id: 'u1',
  country: 'US',
  region: 'California',
  city: 'San Francisco',
  browser: 'Chrome',
  browser_version: '120.0.0.0',
  operating_system: 'Windows',
  device_type: 'desktop',
  language: 'en-US',
}
const u2 = {
  user_id: 'u2',
  country: 'GB',
  region: 'England',
  city: 'London',
  browser: 'Firefox',
  browser_version: '124.0',
  operating_system: 'macOS',
  device_type: 'desktop',
  language: 'en-GB',
}
const u3 = {
  user_id: 'u3',
  country: 'DE',
  region: 'Berlin',
  city: 'Berlin',
  browser: 'Safari',
  browser_version: '17.4',
  operating_system: 'iOS',
  device_type: 'mobile',
  language: 'de-DE',
}
const u4 = {
  user_id: 'u4',
  country: 'US',
  region: 'New York',
  city: 'New York',
  browser: 'Chrome',
  browser_version: '121.0.0.0',
  operating_system: 'Android',
  device_type: 'mobile',
  language: 'en-US',
}

const row = (visitor: Partial<EventRow>, session: string, timestamp: string, fields: Partial<EventRow>) =>
  eventRow({
    site_id: SITE,
    session_id: session,
    timestamp,
    referrer: '',
    referrer_domain: '',
    channel: 'Direct',
    ...visitor,
    ...fields,
  })

const google = {
  referrer: 'https://www.google.com/search?q=pathlight',
  referrer_domain: 'google.com',
  channel: 'Organic Search',
}

/** The rows of the module comment's table, in time order per session. */
export const reportRows: EventRow[] = [
  row(u1, 's1', '2026-03-10T10:00:00.000Z', { pathname: '/', ...google }),
  row(u1, 's1', '2026-03-10T10:00:30.000Z', { pathname: '/pricing', channel: 'Internal' }),
  row(u1, 's1', '2026-03-10T10:01:10.500Z', {
    type: 'custom_event',
    pathname: '/pricing',
    event_name: 'signup',
    properties: '{"plan":"pro","seats":3}',
    channel: 'Internal',
  }),
  row(u1, 's1', '2026-03-10T10:02:05.900Z', { pathname: '/docs/intro', channel: 'Internal' }),
  row(u1, 's2', '2026-03-12T09:00:00.000Z', {
    pathname: '/blog/post-1',
    referrer: 'https://t.co/abc',
    referrer_domain: 't.co',
    channel: 'Organic Social',
  }),
  row(u2, 's3', '2026-03-11T14:00:00.000Z', { pathname: '/pricing' }),
  row(u2, 's3', '2026-03-11T14:00:20.000Z', {
    type: 'error',
    pathname: '/pricing',
    event_name: 'TypeError',
    error_message: TYPE_ERROR,
    error_stack: "TypeError: Cannot read properties of undefined (reading 'x')\n    at f (app.js:10:5)",
    error_file: 'https://example.com/app.js',
    error_line: 10,
    error_column: 5,
  }),
  row(u2, 's3', '2026-03-11T14:05:00.000Z', { pathname: '/checkout' }),
  row(u2, 's3', '2026-03-11T14:05:30.000Z', {
    type: 'custom_event',
    pathname: '/checkout',
    event_name: 'signup',
    properties: '{"plan":"free","seats":"3"}',
  }),
  row(u3, 's4', '2026-03-15T20:00:00.000Z', { pathname: '/' }),
  row(u3, 's4', '2026-03-15T20:00:10.000Z', {
    type: 'error',
    pathname: '/',
    event_name: 'ReferenceError',
    error_message: REFERENCE_ERROR,
    error_stack: 'ReferenceError: foo is not defined\n    at g (main.js:3:1)',
    error_file: 'https://example.com/main.js',
    error_line: 3,
    error_column: 1,
  }),
  row(u3, 's4', '2026-03-15T20:00:15.000Z', {
    type: 'error',
    pathname: '/',
    event_name: 'TypeError',
    error_message: TYPE_ERROR,
    error_stack: 'TypeError: x\n    at h (main.js:7:2)',
    error_file: 'https://example.com/main.js',
    error_line: 7,
    error_column: 2,
  }),
  row(u3, 's5', '2026-03-20T08:00:00.000Z', {
    type: 'custom_event',
    pathname: '/',
    event_name: 'newsletter',
    properties: '{"confirmed":true}',
  }),
  row(u4, 's6', '2026-03-25T12:00:00.000Z', {
    pathname: '/blog/post-2',
    referrer: 'https://news.ycombinator.com/',
    referrer_domain: 'news.ycombinator.com',
    channel: 'Referral',
  }),
  row(u4, 's6', '2026-03-25T12:00:45.000Z', {
    type: 'outbound',
    pathname: '/blog/post-2',
    referrer: 'https://news.ycombinator.com/',
    referrer_domain: 'news.ycombinator.com',
    channel: 'Referral',
    properties: '{"url":"https://github.com/x","text":"GitHub","target":"_blank"}',
  }),
  // Never counted: outside the range, or another site.
  row(u1, 's0', '2026-02-28T23:59:59.999Z', { pathname: '/' }),
  row(u1, 's9', '2026-04-01T00:00:00.000Z', { pathname: '/' }),
  row(u1, 's8', '2026-03-10T10:00:00.000Z', { site_id: 8, pathname: '/pricing' }),
]

/**
 * A fresh events store holding `rows`: chDB in a temporary directory, or in the server pass a database
 * of its own on the ClickHouse server. `close` removes it.
 */
export async function openReportStore(
  rows: readonly EventRow[] = reportRows,
): Promise<{ events: EventsStore; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-query-'))
  copyEventsTemplate(dir)
  const events = await openTestEventsStore(dir)
  await events.insert(rows)
  return {
    events,
    async close() {
      await events.close()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The scope of site 7 for query-string-like parameters; the range defaults to March 2026 (UTC).
 * @param query e.g. `{ filters: JSON.stringify([...]) }`
 */
export function marchScope(query: Record<string, string> = {}): ReportScope {
  return {
    siteId: SITE,
    params: parseQueryParams({ start_date: '2026-03-01', end_date: '2026-03-31', ...query }, 0),
  }
}

/** `filters` query value of a list of `[parameter, type, values]`. */
export const filtersParam = (...filters: [string, string, string[]][]): { filters: string } => ({
  filters: JSON.stringify(filters.map(([parameter, type, value]) => ({ parameter, type, value }))),
})
