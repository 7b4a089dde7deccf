/**
 * Errors grouped by message on real chDB with the fixture of `report-data.fixture.ts`: SQL pinned,
 * counts, affected sessions, names and shares checked by hand, with filters and pagination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsStore } from '../storage/events/events-store.js'
import { compileErrorNames, queryErrorNames } from './error-names.js'
import {
  filtersParam,
  marchScope,
  openReportStore,
  REFERENCE_ERROR,
  SITE,
  TYPE_ERROR,
} from './report-data.fixture.js'

let store: Awaited<ReturnType<typeof openReportStore>>
let events: EventsStore
beforeAll(async () => {
  store = await openReportStore()
  events = store.events
})
afterAll(() => store.close())

const SCOPE =
  "site_id = {site:UInt32} AND timestamp >= {from:DateTime64(3, 'UTC')} AND timestamp < {to:DateTime64(3, 'UTC')}"

describe('compileErrorNames', () => {
  it('pins the SQL and parameters', () => {
    expect(compileErrorNames(marchScope(filtersParam(['pathname', 'equals', ['/']])))).toEqual({
      sql: [
        'SELECT error_message AS value, topK(1)(event_name)[1] AS error_name, count() AS occurrences, uniqExact(cityHash64(session_id)) AS affected_sessions, 100 * count() / sum(count()) OVER () AS share, count() OVER () AS total_values',
        'FROM events',
        `WHERE ${SCOPE} AND type = 'error' AND pathname IN {f0:Array(String)}`,
        'GROUP BY value',
        'ORDER BY occurrences DESC, value ASC',
        'LIMIT {limit:UInt32} OFFSET {offset:UInt32}',
      ].join('\n'),
      params: {
        site: SITE,
        from: '2026-03-01 00:00:00.000',
        to: '2026-04-01 00:00:00.000',
        f0: ['/'],
        limit: 50,
        offset: 0,
      },
    })
  })
})

describe('queryErrorNames', () => {
  it('groups March errors by message, most frequent first', async () => {
    expect((await queryErrorNames(events, marchScope())).data).toEqual([
      { value: TYPE_ERROR, errorName: 'TypeError', count: 2, sessionCount: 2, percentage: 66.67 },
      { value: REFERENCE_ERROR, errorName: 'ReferenceError', count: 1, sessionCount: 1, percentage: 33.33 },
    ])
  })

  it('takes shares of the filtered total and pages after computing them', async () => {
    // Errors on '/' (s4): one of each message; ties in message order ('C' before 'f').
    expect(
      (await queryErrorNames(events, marchScope(filtersParam(['pathname', 'equals', ['/']])))).data,
    ).toEqual([
      { value: TYPE_ERROR, errorName: 'TypeError', count: 1, sessionCount: 1, percentage: 50 },
      { value: REFERENCE_ERROR, errorName: 'ReferenceError', count: 1, sessionCount: 1, percentage: 50 },
    ])
    expect(await queryErrorNames(events, marchScope({ limit: '1', page: '2' }))).toEqual({
      data: [
        { value: REFERENCE_ERROR, errorName: 'ReferenceError', count: 1, sessionCount: 1, percentage: 33.33 },
      ],
      total: 2,
    })
    // Sessions that entered on /pricing: s3, one TypeError.
    const pricing = marchScope(filtersParam(['entry_page', 'equals', ['/pricing']]))
    expect((await queryErrorNames(events, pricing)).data).toEqual([
      { value: TYPE_ERROR, errorName: 'TypeError', count: 1, sessionCount: 1, percentage: 100 },
    ])
    expect((await queryErrorNames(events, marchScope({ start_date: '2026-03-16' }))).data).toEqual([])
  })
})
