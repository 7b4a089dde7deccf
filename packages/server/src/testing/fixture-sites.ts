/**
 * Test support for the browser tests of the tracking script: customer sites, each on its own host name
 * (`<prefix>N.test`, which Chromium's flags map to 127.0.0.1, see `browser.ts`), served by one small
 * node:http server from a directory of fixture pages. A page's `{{SCRIPT}}` becomes the snippet of the
 * site whose domain is the request's Host (nothing for an unknown host) and `{{PORT}}` the fixture
 * server's port, so the script runs cross-origin as on a real site.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Updateable } from 'kysely'
import type { SiteTable } from '../storage/metadata/schema.js'
import type { TestInstance } from './test-instance.js'

/** Site columns a test sets directly in the metadata store (e.g. `{ session_replay: 1 }`). */
export type SiteColumns = Updateable<SiteTable>

export interface FixtureSites {
  /** The fixture server's port (pages are `http://<host>.test:<port>/<file>.html`). */
  readonly port: number
  /**
   * A new site of the seeded organization on the next host name, with `columns` set, whose pages carry
   * `attributes` on the script tag (e.g. `data-hash-mode`).
   * @returns its id and the origin its pages are served from (`http://<prefix>N.test:PORT`)
   */
  add(columns?: SiteColumns, attributes?: string): Promise<{ siteId: number; origin: string }>
  close(): Promise<void>
}

export interface FixtureSitesOptions {
  t: TestInstance
  /** The session cookie and organization of the seeded owner (`TestInstance.seed()`). */
  cookie: string
  organizationId: string
  /** The directory of `*.html` fixture pages. */
  dir: string
  /** The tracking script's URL, e.g. `${serverUrl}/api/script.js`. */
  scriptUrl: string
  /** Host names are `<prefix>1.test`, `<prefix>2.test`, ... (distinct per test file). */
  prefix: string
}

/** Start the fixture server on an ephemeral loopback port. Close it in `afterAll`. */
export async function startFixtureSites(options: FixtureSitesOptions): Promise<FixtureSites> {
  const { t, cookie, organizationId, dir, scriptUrl, prefix } = options
  const sites = new Map<string, { siteId: number; attributes: string }>()
  const server = http.createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '')
    const file = path.join(dir, path.basename(new URL(request.url ?? '/', 'http://x').pathname))
    if (!file.endsWith('.html') || !fs.existsSync(file)) {
      response.writeHead(404).end()
      return
    }
    const site = sites.get(host)
    const snippet = site
      ? `<script defer src="${scriptUrl}" data-site-id="${site.siteId}" ${site.attributes}></script>`
      : ''
    const html = fs
      .readFileSync(file, 'utf8')
      .replace('{{SCRIPT}}', snippet)
      .replaceAll('{{PORT}}', String(port))
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  let count = 0
  return {
    port,
    async add(columns = {}, attributes = '') {
      const domain = `${prefix}${++count}.test`
      const { siteId } = await t.createSite(cookie, organizationId, domain)
      if (Object.keys(columns).length > 0) {
        await t.services.metadata.db.updateTable('site').set(columns).where('site_id', '=', siteId).execute()
      }
      sites.set(domain, { siteId, attributes })
      return { siteId, origin: `http://${domain}:${port}` }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
