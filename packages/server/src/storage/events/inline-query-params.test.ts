import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { injections } from '../../testing/hostile-values.js'
import { openChdbStore } from './chdb-store.js'
import type { EventsStore } from './events-store.js'
import { inlineQueryParams } from './inline-query-params.js'

describe('inlineQueryParams', () => {
  it('writes each placeholder as a cast of its literal to the placeholder type', () => {
    expect(
      inlineQueryParams(
        "SELECT {site:UInt32}, {from:DateTime64(3, 'UTC')}, {names:Array(String)}, {on:Bool}, {x:Nullable(String)}",
        { site: 7, from: '2026-03-01 00:00:00.000', names: ['a', 'b'], on: true, x: null },
      ),
    ).toBe(
      "SELECT CAST(7 AS UInt32), CAST('2026-03-01 00:00:00.000' AS DateTime64(3, 'UTC')), " +
        "CAST(['a', 'b'] AS Array(String)), CAST(true AS Bool), CAST(NULL AS Nullable(String))",
    )
  })

  it('escapes backslashes, quotes and NUL, and does not read placeholders inside values', () => {
    expect(inlineQueryParams('{v:String}', { v: "it's \\ \0 {w:String}" })).toBe(
      "CAST('it\\'s \\\\ \\0 {w:String}' AS String)",
    )
  })

  it('refuses a missing parameter and values it cannot write, naming the parameter', () => {
    expect(() => inlineQueryParams('SELECT {site:UInt32}', {})).toThrow(/site has no value/)
    expect(() => inlineQueryParams('SELECT {n:Float64}', { n: Number.NaN })).toThrow(/n is not a finite/)
    expect(() => inlineQueryParams('SELECT {o:String}', { o: { a: 1 } })).toThrow(/o must be/)
    expect(() => inlineQueryParams('SELECT {a:Array(String)}', { a: [undefined] })).toThrow(/a must be/)
  })
})

describe('inlined parameters on chDB', () => {
  let store: EventsStore
  beforeAll(async () => {
    store = await openChdbStore(fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-inline-')))
  })
  afterAll(() => store.close())

  const hostile = [
    ...injections,
    "\\'; SELECT 1; --",
    '\0',
    'a\0b',
    '\n\r\t',
    '\\0',
    '\\x27',
    'é ✓ 𝄞',
    '',
    "'".repeat(100),
    '\\'.repeat(101),
  ]

  it('reads back every hostile string exactly, alone and in an array', async () => {
    for (const value of hostile) {
      const [row] = await store.query<{ v: string; a: string[]; n: number }>(
        'SELECT {v:String} AS v, {a:Array(String)} AS a, length({a:Array(String)}) AS n',
        { v: value, a: [value, 'x'] },
      )
      expect(row).toEqual({ v: value, a: [value, 'x'], n: 2 })
    }
  })

  it('keeps typed values typed: dates, numbers, UUID lists in IN', async () => {
    const [row] = await store.query<Record<string, unknown>>(
      `SELECT toTypeName({t:DateTime64(3, 'UTC')}) AS type, {t:DateTime64(3, 'UTC')} + 1 AS later,
         {n:UInt32} * 2 AS twice, {f:Float64} / 2 AS half,
         toUUID('00000000-0000-4000-8000-000000000001') IN {ids:Array(UUID)} AS found`,
      {
        t: '2026-03-01 00:00:00.000',
        n: 21,
        f: 0.5,
        ids: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
      },
    )
    expect(row).toEqual({
      type: "DateTime64(3, 'UTC')",
      later: '2026-03-01 00:00:01.000',
      twice: 42,
      half: 0.25,
      found: 1,
    })
  })

  it('fails a query whose parameter is missing, as binding would', async () => {
    await expect(store.query('SELECT {site:UInt32} AS s', {})).rejects.toThrow(/site has no value/)
  })
})
