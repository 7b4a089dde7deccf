/**
 * Heatmaps through the real app (SQLite + chDB): `heatmap_click` events tracked as the tracker's chunk
 * sends them (refused while the site's `heatmaps` switch is off, a 400 naming the field for a bad one),
 * then the page's heatmap read from the dashboard route and v1, its bins, rage and dead counts checked
 * against a count made here from the generated clicks; the signed viewing link's token opens the same
 * heatmap from any origin, and an altered or expired one does not. The clicks are in the site's export
 * and go with their visitor's erasure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROME_UA } from '../testing/browser.js'
import { openTestInstance, type TestInstance } from '../testing/test-instance.js'

let now = Date.parse('2026-03-10T10:00:00.000Z')
const DAY = 'start_date=2026-03-10&end_date=2026-03-10'

interface Click {
  selector: string
  click_x: number
  click_y: number
  viewport: 'desktop' | 'mobile'
  rage_click: boolean
  dead_click: boolean
}

describe('heatmaps', () => {
  let t: TestInstance
  let owner: Awaited<ReturnType<TestInstance['seed']>>
  let key: string

  beforeAll(async () => {
    t = await openTestInstance({ clock: () => now })
    owner = await t.seed()
    key = (await t.services.apiKeys.create(owner.userId, { name: 'reader', scope: 'read' })).key
  }, 60_000)
  afterAll(() => t?.close())

  const track = (siteId: number, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/track',
      headers: { origin: 'https://example.com', 'user-agent': CHROME_UA, 'content-type': 'application/json' },
      payload: JSON.stringify({ site_id: String(siteId), pathname: '/pricing', ...body }),
    })
  const setHeatmaps = async (siteId: number, on: boolean) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/sites/${siteId}/config`,
      headers: { cookie: owner.cookie, origin: 'http://localhost' },
      payload: { heatmaps: on },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().config.heatmaps).toBe(on)
  }

  it('records clicks only with the switch on, refuses bad ones naming the field, and answers the heatmap', async () => {
    const site = await t.createSite(owner.cookie, owner.site.organizationId, 'example.com')
    expect((await track(site.siteId, {})).statusCode).toBe(200)
    const click: Click = {
      selector: '#buy',
      click_x: 0.5,
      click_y: 0.5,
      viewport: 'desktop',
      rage_click: false,
      dead_click: false,
    }
    const off = await track(site.siteId, { type: 'heatmap_click', ...click })
    expect(off.json()).toMatchObject({ tracked: false })

    await setHeatmaps(site.siteId, true)
    for (const [body, field] of [
      [{ ...click, click_x: 1.5 }, 'click_x'],
      [{ ...click, selector: undefined }, 'selector'],
      [{ ...click, viewport: 'watch' }, 'viewport'],
      [{ ...click, rage_click: 'yes' }, 'rage_click'],
    ] as const) {
      const bad = await track(site.siteId, { type: 'heatmap_click', ...body })
      expect(bad.statusCode, bad.body).toBe(400)
      expect(Object.keys(bad.json().details.fieldErrors)).toContain(field)
    }

    // Generated clicks: three elements, positions spread over each box, some rage, some dead, two widths.
    const clicks: Click[] = []
    let seed = 7
    const random = () => {
      seed = (seed * 48271) % 2147483647
      return seed / 2147483647
    }
    const selectors = [
      '#buy',
      'main > section:nth-of-type(2) > a:nth-of-type(1)',
      'html > body > footer:nth-of-type(1)',
    ]
    for (let i = 0; i < 60; i++) {
      clicks.push({
        selector: selectors[i % 3] as string,
        click_x: i === 0 ? 1 : Math.round(random() * 1000) / 1000,
        click_y: i === 1 ? 0 : Math.round(random() * 1000) / 1000,
        viewport: i % 4 === 0 ? 'mobile' : 'desktop',
        rage_click: i % 7 === 0,
        dead_click: i % 5 === 0,
      })
    }
    for (const c of clicks) {
      const response = await track(site.siteId, { type: 'heatmap_click', ...c })
      expect(response.json(), response.body).toMatchObject({ success: true })
      expect(response.json().tracked).not.toBe(false)
    }
    await t.services.buffer.flush()

    // The count made here: bins of 20 per side, the far edge in the last bin.
    const expected = (viewport?: Click['viewport']) => {
      const bin = (p: number) => Math.min(19, Math.floor(Math.round(p * 1000) / 50))
      const chosen = clicks.filter((c) => !viewport || c.viewport === viewport)
      const elements = new Map<
        string,
        { clicks: number; rage: number; dead: number; bins: Map<string, number> }
      >()
      for (const c of chosen) {
        const e = elements.get(c.selector) ?? { clicks: 0, rage: 0, dead: 0, bins: new Map() }
        e.clicks++
        if (c.rage_click) e.rage++
        if (c.dead_click) e.dead++
        const k = `${bin(c.click_x)},${bin(c.click_y)}`
        e.bins.set(k, (e.bins.get(k) ?? 0) + 1)
        elements.set(c.selector, e)
      }
      return { total: chosen.length, elements }
    }
    type Answer = {
      total_clicks: number
      rage_clicks: number
      dead_clicks: number
      grid: number
      elements: {
        selector: string
        clicks: number
        rage_clicks: number
        dead_clicks: number
        bins: { x: number; y: number; clicks: number }[]
      }[]
    }
    const check = (data: Answer, viewport?: Click['viewport']) => {
      const want = expected(viewport)
      expect(data.grid).toBe(20)
      expect(data.total_clicks).toBe(want.total)
      expect(data.elements.map((e) => e.selector).sort()).toEqual([...want.elements.keys()].sort())
      for (const element of data.elements) {
        const e = want.elements.get(element.selector)
        expect(element.clicks).toBe(e?.clicks)
        expect(element.rage_clicks).toBe(e?.rage)
        expect(element.dead_clicks).toBe(e?.dead)
        expect(new Map(element.bins.map((b) => [`${b.x},${b.y}`, b.clicks]))).toEqual(e?.bins)
      }
      expect(data.rage_clicks).toBe(
        clicks.filter((c) => (!viewport || c.viewport === viewport) && c.rage_click).length,
      )
      expect(data.dead_clicks).toBe(
        clicks.filter((c) => (!viewport || c.viewport === viewport) && c.dead_click).length,
      )
    }

    const dashboard = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap?page=%2Fpricing&${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(dashboard.statusCode, dashboard.body).toBe(200)
    check(dashboard.json().data)

    const mobile = await t.app.inject({
      url: `/api/v1/sites/${site.siteId}/heatmap?page=%2Fpricing&viewport=mobile&${DAY}`,
      headers: { authorization: `Bearer ${key}` },
    })
    expect(mobile.statusCode, mobile.body).toBe(200)
    check(mobile.json().data, 'mobile')

    const other = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap?page=%2Fabout&${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(other.json().data).toMatchObject({ total_clicks: 0, elements: [], scroll: null })

    const missing = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap?${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(missing.statusCode).toBe(400)
    expect(missing.body).toContain('page')
    const badViewport = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap?page=%2F&viewport=watch`,
      headers: { cookie: owner.cookie },
    })
    expect(badViewport.statusCode).toBe(400)
    expect(badViewport.body).toContain('viewport')

    // The viewing link: its token opens the same heatmap without credentials, from any origin.
    const link = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap-link?page=%2Fpricing&${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(link.statusCode, link.body).toBe(200)
    const { url, token } = link.json().data as { url: string; token: string }
    expect(url).toBe(`https://example.com/pricing#pathlight-heatmap=${token}`)
    const view = await t.app.inject({
      url: `/api/heatmap-view?token=${token}`,
      headers: { origin: 'https://example.com' },
    })
    expect(view.statusCode, view.body).toBe(200)
    expect(view.headers['access-control-allow-origin']).toBe('*')
    check(view.json().data)
    const [payload, signature] = token.split('.') as [string, string]
    const altered = Buffer.from(
      Buffer.from(payload, 'base64url').toString().replace(`"s":${site.siteId}`, `"s":${owner.site.siteId}`),
    ).toString('base64url')
    expect((await t.app.inject({ url: `/api/heatmap-view?token=${altered}.${signature}` })).statusCode).toBe(
      401,
    )
    now += 11 * 60_000
    expect((await t.app.inject({ url: `/api/heatmap-view?token=${token}` })).statusCode).toBe(401)
    now -= 11 * 60_000

    // A saved segment travels in the link as its filters: its view is the segmented heatmap.
    const segment = await t.app.inject({
      method: 'POST',
      url: `/api/sites/${site.siteId}/segments`,
      headers: { cookie: owner.cookie, origin: 'http://localhost' },
      payload: {
        name: 'Elsewhere',
        filters: [{ parameter: 'pathname', type: 'equals', value: ['/about'] }],
        visibility: 'site',
      },
    })
    expect(segment.statusCode, segment.body).toBe(201)
    const segmented = `page=%2Fpricing&${DAY}&segment=${segment.json().data.segmentId}`
    const segmentedLink = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap-link?${segmented}`,
      headers: { cookie: owner.cookie },
    })
    expect(segmentedLink.statusCode, segmentedLink.body).toBe(200)
    const segmentedView = await t.app.inject({
      url: `/api/heatmap-view?token=${segmentedLink.json().data.token}`,
    })
    expect(segmentedView.statusCode, segmentedView.body).toBe(200)
    const segmentedHeatmap = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap?${segmented}`,
      headers: { cookie: owner.cookie },
    })
    expect(segmentedView.json().data).toEqual(segmentedHeatmap.json().data)
    expect(segmentedView.json().data).toMatchObject({ total_clicks: 0, elements: [] })

    // Clicks are events: in the site's export, and erased with their visitor.
    const exported = await t.app.inject({
      url: `/api/sites/${site.siteId}/export?${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(exported.statusCode, exported.body).toBe(200)
    const exportedClicks = exported.body
      .split('\n')
      .filter((line) => line !== '')
      .map(
        (line) => JSON.parse(line) as { type: string; properties: Record<string, unknown>; userId: string },
      )
      .filter((line) => line.type === 'heatmap_click')
    expect(exportedClicks).toHaveLength(clicks.length)
    expect(exportedClicks.map((line) => line.properties.selector).sort()).toEqual(
      clicks.map((c) => c.selector).sort(),
    )
    const visitors = [...new Set(exportedClicks.map((line) => line.userId))]
    expect(visitors).toHaveLength(1)
    const erased = await t.app.inject({
      method: 'DELETE',
      url: `/api/sites/${site.siteId}/visitors/${visitors[0]}`,
      headers: { cookie: owner.cookie, origin: 'http://localhost' },
    })
    expect(erased.statusCode, erased.body).toBeLessThan(300)
    const after = await t.app.inject({
      url: `/api/sites/${site.siteId}/heatmap?page=%2Fpricing&${DAY}`,
      headers: { cookie: owner.cookie },
    })
    expect(after.json().data).toMatchObject({ total_clicks: 0, elements: [] })
  })
})
