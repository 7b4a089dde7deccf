/**
 * Custom event properties on the dashboard end to end: Debian's Chromium (playwright-core) drives the
 * built app served by the real server (SQLite + chDB, on loopback). Custom events are sent with
 * `POST /api/track` over HTTP on 2026-03-10 (UTC), their properties as the tracker sends them (JSON
 * text, so `3`, `"3"` and `3.0` are three spellings of one value):
 *
 * | events | visitors | properties |
 * |---|---|---|
 * | Signup, one per visitor u0..u11 | 12 | `plan` pro / free / team by turn; `seats` 3, "3", 3.0, 5 by turn, left out for every fifth; `ref` "" for every fourth from u0, "ad" from u1 |
 * | Signup, a second one for u0, u2, ..., u10 | 6 | `plan` pro |
 * | Download f-000..f-104 | u0..u5 by turn | `file` (105 distinct values), `format` pdf / zip on the first 60 |
 *
 * Every expected figure is counted from the list of what was sent (plain code below), not by the
 * server. The owner opens Signup's properties in the overview, reads each key's values with events
 * and visitors, pages through Download's 105 files, clicks a value (the event and the property become
 * filters, in the URL and as chips; the figures follow), removes the property's chip, filters by an
 * empty value (only the events carrying the key count), and finds the
 * keys offered by the goal form and the funnel builder. The open event and its chosen key are in the URL
 * (`event`, `property`): a reload opens the same panel, Back closes it. The dashboard is built first
 * when stale.
 */
import { ensureDashboardBuilt } from '@pathlight/dashboard/build'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, openSignedInPage } from '../src/testing/browser.js'
import { openTestInstance, type TestInstance } from '../src/testing/test-instance.js'

const VIEW = 'period=custom&from=2026-03-10&to=2026-03-10&tz=UTC'
const FIRST_EVENT = Date.parse('2026-03-10T08:00:00.000Z')
const PLANS = ['pro', 'free', 'team']
/** `seats` as JSON text: one value written three ways, and another. */
const SEATS = ['3', '"3"', '3.0', '5']

/** One custom event as sent: who, which event, its properties' JSON text. */
interface Sent {
  user: string
  name: string
  properties: string
}

const sent: Sent[] = []
for (let i = 0; i < 12; i++) {
  const seats = i % 5 === 0 ? '' : `,"seats":${SEATS[i % 4]}`
  const ref = i % 4 === 0 ? ',"ref":""' : i % 4 === 1 ? ',"ref":"ad"' : ''
  sent.push({ user: `u${i}`, name: 'Signup', properties: `{"plan":"${PLANS[i % 3]}"${seats}${ref}}` })
  if (i % 2 === 0) sent.push({ user: `u${i}`, name: 'Signup', properties: '{"plan":"pro"}' })
}
for (let j = 0; j < 105; j++) {
  const file = `f-${String(j).padStart(3, '0')}`
  const format = j < 60 ? `,"format":"${j % 3 === 0 ? 'zip' : 'pdf'}"` : ''
  sent.push({ user: `u${j % 6}`, name: 'Download', properties: `{"file":"${file}"${format}}` })
}

/** A property value as one text: a string as is, a number in its shortest form (JSON.parse reads 3.0 as 3). */
const canonical = (value: unknown) => (typeof value === 'string' ? value : String(value))

/** Rows `[value, events, visitors]` of `key` on `name`'s events, most events first, then by value. */
function expectedValues(name: string, key: string): [string, string, string][] {
  const rows = new Map<string, { events: number; visitors: Set<string> }>()
  for (const event of sent.filter((e) => e.name === name)) {
    const properties = JSON.parse(event.properties) as Record<string, unknown>
    if (!(key in properties)) continue
    const value = canonical(properties[key])
    const row = rows.get(value) ?? { events: 0, visitors: new Set<string>() }
    row.events++
    row.visitors.add(event.user)
    rows.set(value, row)
  }
  return [...rows]
    .sort(([a, x], [b, y]) => y.events - x.events || (a < b ? -1 : 1))
    .map(([value, row]) => [value, String(row.events), String(row.visitors.size)])
}

/** The keys of `name`'s events (of every event without it), most events first, then by key. */
function expectedKeys(name?: string): string[] {
  const counts = new Map<string, number>()
  for (const event of sent.filter((e) => name === undefined || e.name === name))
    for (const key of Object.keys(JSON.parse(event.properties) as object))
      counts.set(key, (counts.get(key) ?? 0) + 1)
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([key]) => key)
}

let t: TestInstance
let now = FIRST_EVENT
let browser: Browser
let page: Page
let base: string
let siteId: number
let cookie: string
let apiKey: string
const pageErrors: string[] = []

beforeAll(async () => {
  const [build] = await Promise.all([
    ensureDashboardBuilt(),
    (async () => {
      t = await openTestInstance({ clock: () => now })
      base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    })(),
  ])
  if (build.built) console.info(`built the dashboard in ${build.ms} ms`)
  const seeded = await t.seed()
  siteId = seeded.site.siteId
  cookie = seeded.cookie
  apiKey = seeded.apiKey
  for (const [index, event] of sent.entries()) {
    now = FIRST_EVENT + index * 10_000
    const response = await fetch(`${base}/api/track`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        site_id: String(siteId),
        type: 'custom_event',
        hostname: 'shop.example',
        pathname: '/',
        user_id: event.user,
        event_name: event.name,
        properties: event.properties,
      }),
    })
    expect(response.status, await response.text()).toBe(200)
  }
  await t.services.buffer.flush()
  now = Date.parse('2026-03-12T12:00:00.000Z')

  browser = await launchChromium()
  ;({ page } = await openSignedInPage(browser, { baseURL: base, cookie, errors: pageErrors, label: 'owner' }))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await t?.close()
})

const eventsCard = () =>
  page.locator('section.card', { has: page.getByRole('heading', { name: 'Custom events' }) })
const panel = () => page.getByTestId('event-properties')

/** The rows `[value, events, visitors]` of `list` as shown, once it is done loading. */
const shownRows = (list: Locator) =>
  list.evaluate((element) => {
    if (element.querySelector('[aria-busy="true"]')) return null
    return [...element.querySelectorAll('.bar-row')].map((row) => {
      const counts = row.querySelectorAll('.bar-count')
      return [
        row.querySelector('.bar-label')?.textContent ?? '',
        ...[...counts].map((count) => count.firstChild?.textContent ?? ''),
      ]
    })
  })

/** Wait until the visitors card shows `visitors` and is done loading. */
const visitorsShow = (visitors: number) =>
  page.waitForFunction(
    (v) =>
      document.querySelector('[data-kpi="visitors"] .kpi-value')?.textContent === v &&
      document.querySelector('.kpis')?.getAttribute('aria-busy') === 'false',
    String(visitors),
  )

/** The suggestions of the datalist an input names in its `list` attribute. */
async function suggestionsOf(input: Locator): Promise<string[]> {
  const id = await input.getAttribute('list')
  if (!id) return []
  return page
    .locator(`datalist[id="${id}"] option`)
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
}

describe('custom event properties in Chromium', () => {
  it("opens a custom event's properties and shows each key's values with events and visitors", async () => {
    // The data set is what the table above says.
    expect(expectedKeys('Signup')).toEqual(['plan', 'seats', 'ref'])
    expect(expectedValues('Signup', 'seats')).toEqual([
      ['3', '6', '6'],
      ['5', '3', '3'],
    ])
    const everyone = new Set(sent.map((e) => e.user)).size

    await page.goto(`/sites/${siteId}?${VIEW}`)
    await visitorsShow(everyone)
    await eventsCard().locator('button[title="Properties of Signup"]').click()
    await panel().waitFor()
    expect(await panel().getByRole('heading').textContent()).toBe('Signup')
    // The back button takes the focus from the row the panel replaced.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('← All events')
    const picker = panel().getByLabel('Property')
    await expect
      .poll(() => picker.evaluate((s) => [...(s as HTMLSelectElement).options].map((o) => o.value)))
      .toEqual(expectedKeys('Signup'))
    expect(await picker.inputValue()).toBe('plan')
    await expect.poll(() => shownRows(panel())).toEqual(expectedValues('Signup', 'plan'))
    await page.screenshot({ path: '/tmp/dashboard-properties-panel.png' })

    await picker.selectOption('seats')
    await expect.poll(() => shownRows(panel())).toEqual(expectedValues('Signup', 'seats'))
  })

  it('keeps the open event and its chosen key in the URL: a reload opens them again, Back closes them', async () => {
    const search = new URL(page.url()).searchParams
    expect([search.getAll('event'), search.getAll('property')]).toEqual([['Signup'], ['seats']])
    await page.reload()
    await panel().waitFor()
    expect(await panel().getByRole('heading').textContent()).toBe('Signup')
    expect(await panel().getByLabel('Property').inputValue()).toBe('seats')
    await expect.poll(() => shownRows(panel())).toEqual(expectedValues('Signup', 'seats'))
    // Choosing the key replaced the entry that opened the panel: one Back closes it.
    await page.goBack()
    await panel().waitFor({ state: 'detached' })
    expect(new URL(page.url()).searchParams.get('event')).toBeNull()
    expect(new URL(page.url()).searchParams.get('property')).toBeNull()
    await page.goForward()
    await expect.poll(() => panel().getByLabel('Property').inputValue()).toBe('seats')
  })

  it('pages through a key with more values than a page holds', async () => {
    await panel().getByRole('button', { name: '← All events' }).click()
    await eventsCard().locator('button[title="Properties of Download"]').click()
    await expect.poll(() => panel().getByLabel('Property').inputValue()).toBe('file')
    const files = expectedValues('Download', 'file')
    expect(files).toHaveLength(105)
    await expect.poll(() => shownRows(panel())).toEqual(files.slice(0, 8))
    await panel().getByRole('button', { name: 'Show all 105' }).click()
    await expect.poll(() => shownRows(panel())).toEqual(files.slice(0, 100))
    await panel().getByText('Page 1 of 2').waitFor()
    await panel().getByRole('button', { name: 'Next →' }).click()
    await expect.poll(() => shownRows(panel())).toEqual(files.slice(100))
    await panel().getByText('Page 2 of 2').waitFor()
    await panel().getByLabel('Property').selectOption('format')
    await expect.poll(() => shownRows(panel())).toEqual(expectedValues('Download', 'format'))
  })

  it('filters by a value: the event and the property in the URL and as chips, the figures following', async () => {
    await panel().getByRole('button', { name: '← All events' }).click()
    await eventsCard().locator('button[title="Properties of Signup"]').click()
    const pro = expectedValues('Signup', 'plan').find(([value]) => value === 'pro')
    expect(pro).toEqual(['pro', '10', '8'])
    await expect.poll(() => shownRows(panel())).toEqual(expectedValues('Signup', 'plan'))
    await panel().locator('.bar-row', { hasText: 'pro' }).click()

    const applied = [
      { parameter: 'event_name', type: 'equals', value: ['Signup'] },
      { parameter: 'properties.plan', type: 'equals', value: ['pro'] },
    ]
    await page.waitForURL(/filters=/)
    expect(JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '')).toEqual(applied)
    const chips = page.getByRole('list', { name: 'Filters' }).locator('li > span')
    expect(await chips.allTextContents()).toEqual(['Event is Signup', 'Property plan is pro'])
    // Visitors with a Signup of plan pro; the panel keeps its event and key, now with the one value.
    const proVisitors = new Set(
      sent.filter((e) => e.name === 'Signup' && JSON.parse(e.properties).plan === 'pro').map((e) => e.user),
    ).size
    await visitorsShow(proVisitors)
    await expect.poll(() => shownRows(panel())).toEqual([pro])
    await page.screenshot({ path: '/tmp/dashboard-properties-filtered.png', fullPage: true })

    // The list of events counts the filtered events too; a reload keeps the filters.
    await panel().getByRole('button', { name: '← All events' }).click()
    await expect.poll(() => shownRows(eventsCard())).toEqual([['Signup', pro?.[1]]])
    await page.reload()
    await visitorsShow(proVisitors)
    expect(await chips.allTextContents()).toEqual(['Event is Signup', 'Property plan is pro'])

    await page.getByRole('button', { name: 'Remove filter: Property plan is pro' }).click()
    const signupVisitors = new Set(sent.filter((e) => e.name === 'Signup').map((e) => e.user)).size
    await visitorsShow(signupVisitors)
    expect(JSON.parse(new URL(page.url()).searchParams.get('filters') ?? '')).toEqual(applied.slice(0, 1))
    const signups = sent.filter((e) => e.name === 'Signup').length
    await expect.poll(() => shownRows(eventsCard())).toEqual([['Signup', String(signups)]])
  })

  it('filters by the empty value over the events that carry the key only', async () => {
    await page.goto(`/sites/${siteId}?${VIEW}`)
    await eventsCard().locator('button[title="Properties of Signup"]').click()
    await panel().getByLabel('Property').selectOption('ref')
    const refs = expectedValues('Signup', 'ref')
    expect(refs).toEqual([
      ['', '3', '3'],
      ['ad', '3', '3'],
    ])
    await expect
      .poll(() => shownRows(panel()))
      .toEqual(refs.map(([value, ...counts]) => [value === '' ? '(none)' : value, ...counts]))
    await panel().locator('.bar-row', { hasText: '(none)' }).click()
    const chips = page.getByRole('list', { name: 'Filters' }).locator('li > span')
    await expect
      .poll(() => chips.allTextContents())
      .toEqual(['Event is Signup', 'Property ref is (none)', 'Property ref is set'])
    const emptyRef = new Set(
      sent.filter((e) => e.name === 'Signup' && JSON.parse(e.properties).ref === '').map((e) => e.user),
    ).size
    await visitorsShow(emptyRef)
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await visitorsShow(new Set(sent.map((e) => e.user)).size)
  })

  it('offers the keys seen in the goal form and the funnel builder, of the event typed if the range has it', async () => {
    await page.goto(`/sites/${siteId}/goals?${VIEW}`)
    const form = page.locator('section', { has: page.getByRole('heading', { name: 'Add a goal' }) })
    await form.getByLabel('A custom event').check()
    const key = form.getByLabel('Property (optional)')
    await expect.poll(() => suggestionsOf(key)).toEqual(expectedKeys())
    await form.getByLabel('Event name').fill('Signup')
    await expect.poll(() => suggestionsOf(key)).toEqual(expectedKeys('Signup'))
    await form.getByLabel('Event name').fill('Download')
    await expect.poll(() => suggestionsOf(key)).toEqual(expectedKeys('Download'))
    expect(await suggestionsOf(form.getByLabel('Event name'))).toEqual(['Download', 'Signup'])
    // Any key may still be typed; the server takes the goal.
    await key.fill('coupon')
    await form.getByLabel('Value').fill('spring')
    await form.getByLabel('Goal name').fill('Spring downloads')
    await form.getByRole('button', { name: 'Create goal' }).click()
    await page.locator('[data-goal="Spring downloads"]').waitFor()

    await page.goto(`/sites/${siteId}/funnels?${VIEW}`)
    await page.getByLabel('Step 2 kind').selectOption('event')
    const stepKey = page.getByLabel('Step 2 property', { exact: true })
    await expect.poll(() => suggestionsOf(stepKey)).toEqual(expectedKeys())
    await page.getByLabel('Step 2 event name').fill('Signup')
    await expect.poll(() => suggestionsOf(stepKey)).toEqual(expectedKeys('Signup'))
    await page.screenshot({ path: '/tmp/dashboard-properties-funnel.png' })
    expect(pageErrors).toEqual([])
  })
})
