/**
 * Serves the dashboard web app (`packages/dashboard/dist`, built by Vite) at `/`, public scope:
 * - `/assets/*`: content-hashed files, `Cache-Control: public, max-age=31536000, immutable`;
 * - other files of the build (`/favicon.svg`, `/index.html`): `no-cache`, revalidated by ETag;
 * - any other GET outside `/api/` (a client-side route such as `/sites/3/settings`): `index.html` with
 *   `no-cache`, so a new build reaches browsers on their next navigation;
 * - paths under `/api/` that no route matched keep the JSON 404, and so do missing files (anything
 *   under `/assets/`, or a last segment with an extension), so a stale tab never gets HTML for a script,
 *   and the server's own paths outside `/api/` (`/metrics`, registered only with METRICS_TOKEN).
 * Brotli and gzip siblings written by the build are sent to clients that accept them. HTML answers
 * carry a Content-Security-Policy that allows this origin only (and inline styles, for session replay),
 * and refuse framing.
 * Without a build (no `dist/index.html`), pages answer 503 with a short HTML page saying how to build
 * it; the check runs per request, so building while the server runs needs no restart.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { SERVER_ROOT } from '../shared/server-root.js'
import { notModified } from './openapi/doc-parts.js'
import { media } from './openapi/route-doc.js'
import { htmlPageHeaders } from './security-headers.js'

/** Where `npm run build -w @pathlight/dashboard` writes the app. */
export const DASHBOARD_DIST_DIR = path.resolve(SERVER_ROOT, '../dashboard/dist')

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable'
export const PAGE_CACHE_CONTROL = 'no-cache'

/**
 * Scripts, fetches and images from this origin only; no inline script; never framed. Styles from this
 * origin and inline: the session replay player (rrweb) rebuilds the recorded page in a sandboxed
 * about:blank iframe, which inherits this policy, with the page's own `<style>` elements and `style`
 * attributes; without 'unsafe-inline' every replay plays unstyled and logs a violation per style.
 * Scripts stay 'self' only (the iframe's sandbox forbids scripts anyway).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export interface DashboardOptions {
  /** The built app; default `DASHBOARD_DIST_DIR`. */
  root?: string
}

/** Paths outside `/api/` that belong to the server, never the app: unregistered, they answer 404. */
const SERVER_PATHS: ReadonlySet<string> = new Set(['/metrics'])

/** What a GET of a path outside `/api/` resolves to. */
type Target =
  | { kind: 'file'; file: string; immutable: boolean }
  | { kind: 'page' }
  | { kind: 'missing' }
  | { kind: 'unbuilt' }

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pathlight: dashboard not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The dashboard has not been built</h1>
<p>Pathlight is running, but its web app is missing (<code>packages/dashboard/dist</code>). Build it with</p>
<pre>npm run build -w @pathlight/dashboard</pre>
<p>(<code>npm ci</code> runs this for you), then reload this page. The HTTP API under <code>/api/</code>
works meanwhile.</p>
</body></html>
`

/**
 * Register the dashboard: `@fastify/static` (for `reply.sendFile`, ETags, ranges and precompressed
 * files) inside this plugin's scope, and one catch-all `GET /*` (HEAD included) that picks what to send.
 */
export async function dashboardRoutes(app: FastifyInstance, { root = DASHBOARD_DIST_DIR }: DashboardOptions) {
  await app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    index: false,
    dotfiles: 'deny',
    suppressWarning: true,
  })
  app.addHook('onReady', async () => {
    if (!(await isFile(path.join(root, 'index.html')))) {
      app.log.warn({ root }, 'dashboard not built: run `npm run build -w @pathlight/dashboard`')
    }
  })

  app.get(
    '/*',
    {
      config: {
        doc: {
          summary: 'The dashboard web app',
          description:
            'Files of the built app (`/assets/*` cached a year), and `index.html` for any other path outside ' +
            '`/api/` (client-side routes). Missing files, unknown `/api/` paths and `/metrics` (when ' +
            'METRICS_TOKEN is unset) answer 404.',
          tag: 'Dashboard',
          access: 'public',
          params: { path: 'Any path outside `/api/`' },
          responses: {
            200: media('A page or a file of the app', 'text/html', '*/*'),
            304: notModified,
            404: 'No such file or route',
            503: media('The dashboard has not been built (a page saying how to build it)', 'text/html'),
          },
        },
      },
    },
    async (request, reply) => {
      const pathname = request.url.split('?', 1)[0] ?? '/'
      if (pathname === '/api' || pathname.startsWith('/api/') || SERVER_PATHS.has(pathname)) {
        return reply.callNotFound()
      }
      const target = await resolveTarget(root, pathname)
      switch (target.kind) {
        case 'missing':
          return reply.callNotFound()
        case 'unbuilt':
          return reply
            .code(503)
            .header('cache-control', PAGE_CACHE_CONTROL)
            .type('text/html; charset=utf-8')
            .send(NOT_BUILT_PAGE)
        case 'page':
          return sendPage(reply, 'index.html')
        case 'file':
          if (target.file.endsWith('.html')) return sendPage(reply, target.file)
          reply.header('cache-control', target.immutable ? ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL)
          reply.header('x-content-type-options', 'nosniff')
          return reply.sendFile(target.file)
      }
    },
  )
}

function sendPage(reply: FastifyReply, file: string) {
  return reply
    .header('cache-control', PAGE_CACHE_CONTROL)
    .headers(htmlPageHeaders(DASHBOARD_CSP))
    .sendFile(file)
}

/**
 * Decide what a path outside `/api/` serves. Paths that do not decode, or that hold `..`, NUL or a
 * backslash, are missing (never resolved against the file system).
 */
async function resolveTarget(root: string, pathname: string): Promise<Target> {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return { kind: 'missing' }
  }
  const segments = decoded.split('/')
  if (segments.some((s) => s === '..' || s.startsWith('.')) || /[\\\0]/.test(decoded)) {
    return { kind: 'missing' }
  }
  const relative = segments.filter(Boolean).join('/')
  const isAsset = relative.startsWith('assets/')
  if (relative !== '' && (await isFile(path.join(root, relative)))) {
    return { kind: 'file', file: relative, immutable: isAsset }
  }
  const last = segments.at(-1) ?? ''
  if (isAsset || /\.[a-z0-9]+$/i.test(last)) return { kind: 'missing' }
  return (await isFile(path.join(root, 'index.html'))) ? { kind: 'page' } : { kind: 'unbuilt' }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile()
  } catch {
    return false
  }
}
