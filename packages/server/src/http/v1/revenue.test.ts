/**
 * `GET /api/v1/sites/{siteId}/revenue` on imported events whose amounts sum exactly to a half of the
 * currency's minor unit: every figure (totals, per event name, per path, per bucket, per visitor) is
 * the exact decimal sum rounded once, half away from zero, at the currency's ISO 4217 exponent, and
 * the same filtered total asked 20 times answers one value. Expected figures come from integer
 * arithmetic over the amounts as generated (thousandths / ten-thousandths), not from the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Site } from '../../sites/site.js'
import { openTestInstance, type TestInstance } from '../../testing/test-instance.js'

const NOW = Date.parse('2026-05-01T12:00:00.000Z')
const RANGE = 'start_date=2026-04-01&end_date=2026-04-30&time_zone=UTC'

interface Purchase {
  user: string
  at: string
  pathname: string
  name: string
  currency: string
  /** The amount in units of 10^-4, as an integer (exact). */
  units: bigint
}

/** A deterministic stream of integers in [0, n). */
function randomInts(seed: number) {
  let state = seed
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % n
  }
}

/** Amounts (10^-4 units) that add up to exactly `total`: `count - 1` random ones and the rest. */
function amountsSumming(total: bigint, count: number, next: (n: number) => number): bigint[] {
  const amounts: bigint[] = []
  for (let i = 0; i < count - 1; i++)
    amounts.push(BigInt(1 + next(Math.floor(Number(total) / count / 10))) * 10n)
  const rest = total - amounts.reduce((a, b) => a + b, 0n)
  if (rest <= 0n) throw new Error('the generator overshot')
  return [...amounts, rest]
}

/** 10^-4 units as the decimal text sent (`12.3456`, trailing zeros dropped). */
function decimalText(units: bigint): string {
  const whole = units / 10_000n
  const fraction = String(units % 10_000n)
    .padStart(4, '0')
    .replace(/0+$/, '')
  return fraction === '' ? String(whole) : `${whole}.${fraction}`
}

const next = randomInts(52)
const PURCHASES: Purchase[] = []
const addAmounts = (currency: string, amounts: bigint[], pathname: string, name: string) => {
  for (const [i, units] of amounts.entries())
    PURCHASES.push({
      user: `${currency}-${pathname}-${i % 7}`,
      at: `2026-04-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00.000Z`,
      pathname,
      name,
      currency,
      units,
    })
}
const add = (currency: string, total: bigint, count: number, pathname: string, name: string) =>
  addAmounts(currency, amountsSumming(total, count, next), pathname, name)
// Ten JPY amounts summing exactly to 272.035 (JPY has no minor unit: 272), and 272.5 on another path.
add('JPY', 2_720_350n, 10, '/jp', 'buy')
add('JPY', 2_725_000n, 10, '/jp-half', 'buy')
// USD: 81.825 on /checkout (the filtered total), 19.995 on /other. The amounts are drawn until their
// sum in floating point, added in either order, falls short of 81.825, as a float sum often does.
const floatSum = (units: bigint[]) => units.reduce((sum, u) => sum + Number(decimalText(u)), 0)
let checkout = amountsSumming(818_250n, 40, next)
while (floatSum(checkout) >= 81.825 || floatSum([...checkout].reverse()) >= 81.825)
  checkout = amountsSumming(818_250n, 40, next)
addAmounts('USD', checkout, '/checkout', 'buy')
add('USD', 199_950n, 13, '/other', 'renew')
// BHD (3 decimals): 1.0005 on /checkout.
add('BHD', 10_005n, 7, '/checkout', 'buy')

const EXPONENTS: Record<string, number> = { JPY: 0, USD: 2, BHD: 3 }

/** Round 10^-4 units to the currency's exponent, half away from zero (amounts here are positive). */
function rounded(units: bigint, currency: string, divisor = 1n): number {
  const exponent = EXPONENTS[currency] ?? 2
  const step = 10n ** BigInt(4 - exponent) * divisor
  let steps = units / step
  if ((units % step) * 2n >= step) steps += 1n
  return Number(steps) / 10 ** exponent
}

const sumOf = (purchases: Purchase[]) => purchases.reduce((sum, p) => sum + p.units, 0n)

describe('v1 revenue: exact decimal sums, rounded once at the currency exponent', () => {
  let t: TestInstance
  let site: Site
  let key: string

  const revenue = async (query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/sites/${site.siteId}/revenue?${query}`,
      headers: { authorization: `Bearer ${key}` },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json().data
  }

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => NOW })
    const seeded = await t.seed()
    site = seeded.site
    key = seeded.apiKey
    const lines = PURCHASES.map((p) =>
      JSON.stringify({
        timestamp: p.at,
        type: 'custom_event',
        event_name: p.name,
        pathname: p.pathname,
        hostname: 'example.com',
        user_id: p.user,
        properties: `{"revenue":${decimalText(p.units)},"currency":"${p.currency.toLowerCase()}"}`,
      }),
    )
    // One amount as a decimal string, as the docs allow: the same figures.
    lines.push(
      JSON.stringify({
        timestamp: '2026-04-15T10:00:00.000Z',
        type: 'custom_event',
        event_name: 'buy',
        pathname: '/strings',
        hostname: 'example.com',
        user_id: 'string-payer',
        properties: { revenue: '0.005', currency: 'EUR' },
      }),
    )
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/import`,
      headers: { cookie: seeded.cookie, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    })
    expect(imported.statusCode, imported.body).toBe(200)
    expect(imported.json()).toMatchObject({ imported: lines.length, rejectedCount: 0 })
  }, 120_000)
  afterAll(() => t?.close())

  it('totals, per event name, per path and per day match the exact sums, half rounded up', async () => {
    const data = await revenue(`${RANGE}&bucket=day`)
    const visitors = new Set([...PURCHASES.map((p) => p.user), 'string-payer']).size
    const currencies = ['BHD', 'JPY', 'USD']
    const totals = currencies.map((currency) => {
      const units = sumOf(PURCHASES.filter((p) => p.currency === currency))
      return {
        currency,
        revenue: rounded(units, currency),
        events: PURCHASES.filter((p) => p.currency === currency).length,
        visitors,
        revenue_per_visitor: rounded(units, currency, BigInt(visitors)),
      }
    })
    totals.push({ currency: 'EUR', revenue: 0.01, events: 1, visitors, revenue_per_visitor: 0 })
    expect(new Map(data.totals.map((row: { currency: string }) => [row.currency, row]))).toEqual(
      new Map(totals.map((row) => [row.currency, row])),
    )
    // 272.035 JPY is 272; 272.5 JPY is 273 (half up); 81.825 + 19.995 USD is 101.82.
    expect(data.byPathname).toContainEqual({ currency: 'JPY', pathname: '/jp', revenue: 272, events: 10 })
    expect(data.byPathname).toContainEqual({
      currency: 'JPY',
      pathname: '/jp-half',
      revenue: 273,
      events: 10,
    })
    expect(data.byPathname).toContainEqual({
      currency: 'USD',
      pathname: '/checkout',
      revenue: 81.83,
      events: 40,
    })
    expect(data.byPathname).toContainEqual({
      currency: 'BHD',
      pathname: '/checkout',
      revenue: 1.001,
      events: 7,
    })

    for (const [field, keyOf] of [
      ['pathname', (p: Purchase) => p.pathname],
      ['event_name', (p: Purchase) => p.name],
    ] as const) {
      const groups = new Map<string, Purchase[]>()
      for (const p of PURCHASES) {
        const group = `${p.currency}|${keyOf(p)}`
        groups.set(group, [...(groups.get(group) ?? []), p])
      }
      const rows = field === 'pathname' ? data.byPathname : data.byEventName
      const got = new Map(
        rows
          .filter((row: { currency: string }) => row.currency !== 'EUR')
          .map((row: Record<string, string | number>) => [
            `${row.currency}|${row[field]}`,
            { revenue: row.revenue, events: row.events },
          ]),
      )
      expect(got, field).toEqual(
        new Map(
          [...groups].map(([group, purchases]) => [
            group,
            { revenue: rounded(sumOf(purchases), purchases[0]?.currency ?? ''), events: purchases.length },
          ]),
        ),
      )
    }

    const days = new Map<string, Purchase[]>()
    for (const p of PURCHASES) {
      const group = `${p.at.slice(0, 10)}T00:00:00.000Z|${p.currency}`
      days.set(group, [...(days.get(group) ?? []), p])
    }
    for (const [group, purchases] of days) {
      const [time, currency] = group.split('|')
      expect(data.series, group).toContainEqual({
        time,
        currency,
        revenue: rounded(sumOf(purchases), currency ?? ''),
      })
    }
  })

  it('answers one value for the same filtered total asked 20 times', async () => {
    const filters = encodeURIComponent(
      JSON.stringify([{ parameter: 'pathname', type: 'equals', value: ['/checkout'] }]),
    )
    const answers = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const data = await revenue(`${RANGE}&filters=${filters}`)
      answers.add(JSON.stringify(data.totals.find((row: { currency: string }) => row.currency === 'USD')))
    }
    expect(answers.size).toBe(1)
    const usd = JSON.parse([...answers][0] ?? '{}')
    expect(usd.revenue).toBe(
      rounded(sumOf(PURCHASES.filter((p) => p.pathname === '/checkout' && p.currency === 'USD')), 'USD'),
    )
    expect(usd.revenue).toBe(81.83)
  })
})
