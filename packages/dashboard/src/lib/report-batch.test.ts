import { describe, expect, it } from 'vitest'
import type { RegisteredPart } from '../api/part-request'
import {
  breakdownPart,
  countriesPart,
  eventNamesPart,
  livePart,
  overviewParts,
  seriesPart,
} from './overview-parts'
import { answerOf, createReportBatch, firstRows } from './report-batch'

const page = (values: string[], total = values.length, pageSize = values.length) => ({
  data: values.map((value) => ({ value, visitors: 1 })),
  meta: { total, page: 1, pageSize, totalPages: Math.ceil(total / pageSize) },
})

describe('answerOf', () => {
  it('answers the same part whatever its id, and the first page of a longer one by its first rows', () => {
    expect(answerOf(livePart, { name: 'live' })?.('x')).toBe('x')
    const ten = page(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], 12)
    const pick = answerOf(countriesPart, breakdownPart({ name: 'countries', metric: 'visitors' }))
    expect(pick?.(ten)).toEqual(firstRows(ten, 8))
    expect(firstRows(ten, 8)).toEqual({
      data: ten.data.slice(0, 8),
      meta: { total: 12, page: 1, pageSize: 8, totalPages: 2 },
    })
  })

  it('answers no other report, parameter, count, larger page or later page', () => {
    const countries = breakdownPart({ name: 'countries', metric: 'visitors' })
    const missing: RegisteredPart[] = [
      breakdownPart({ name: 'regions', metric: 'visitors' }),
      breakdownPart({ name: 'countries', metric: 'pageviews' }),
      breakdownPart({ name: 'countries', metric: 'visitors' }, 300),
      { ...countries, params: { ...countries.params, page: 2 } },
      seriesPart('week', 'visitors'),
      { name: 'stats', params: { bucket: 'day' } },
    ]
    for (const part of missing) expect(answerOf(countriesPart, part)).toBeUndefined()
    expect(answerOf(seriesPart('day', 'visitors'), seriesPart('day', 'pageviews'))).toBeUndefined()
    expect(answerOf({ name: 'stats' }, { name: 'stats', params: { bucket: 'day' } })).toBeUndefined()
  })
})

describe('createReportBatch', () => {
  it('sends the batch once, on the first part it holds, and loads any other part alone', async () => {
    const sent: RegisteredPart[][] = []
    const alone: RegisteredPart[] = []
    const parts = [eventNamesPart, countriesPart]
    const batch = createReportBatch(
      parts,
      async (asked) => {
        sent.push(asked)
        return { 'event-names': { data: [], meta: {} }, countries: page(['DE', 'FR', 'US'], 3) }
      },
      async (part) => {
        alone.push(part)
        return { data: [], meta: {} } as never
      },
    )
    await batch.load(breakdownPart({ name: 'regions', metric: 'visitors' }))
    expect(sent).toEqual([])
    const [names, countries, top2] = await Promise.all([
      batch.load(eventNamesPart),
      batch.load(countriesPart),
      batch.load(breakdownPart({ name: 'countries', metric: 'visitors' }, 2)),
    ])
    expect(sent).toEqual([parts])
    expect(alone).toEqual([breakdownPart({ name: 'regions', metric: 'visitors' })])
    expect(names).toEqual({ data: [], meta: {} })
    expect(countries.data.map((row) => row.value)).toEqual(['DE', 'FR', 'US'])
    expect(top2).toEqual(firstRows(page(['DE', 'FR', 'US'], 3), 2))
  })
})

describe('overviewParts', () => {
  it('is the body the overview has always sent', () => {
    expect(overviewParts('day', 'visitors')).toEqual([
      { id: 'stats', name: 'stats' },
      { id: 'series', name: 'series', params: { bucket: 'day', metrics: ['visitors'] } },
      { id: 'pages', name: 'breakdown', params: { name: 'pages', limit: 8, metrics: ['pageviews'] } },
      { id: 'channels', name: 'breakdown', params: { name: 'channels', limit: 8, metrics: ['visitors'] } },
      {
        id: 'countries',
        name: 'breakdown',
        params: { name: 'countries', limit: 250, metrics: ['visitors'] },
      },
      { id: 'browsers', name: 'breakdown', params: { name: 'browsers', limit: 8, metrics: ['visitors'] } },
      { id: 'event-names', name: 'event-names', params: { limit: 8, metrics: ['events'] } },
      { id: 'live', name: 'live' },
    ])
    // Key order too: the body is JSON text.
    expect(JSON.stringify(overviewParts('hour', 'pageviews').slice(1, 3))).toBe(
      '[{"id":"series","name":"series","params":{"bucket":"hour","metrics":["pageviews"]}},' +
        '{"id":"pages","name":"breakdown","params":{"name":"pages","limit":8,"metrics":["pageviews"]}}]',
    )
  })
})
