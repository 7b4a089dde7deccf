import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AccessLogLine, isPageRequest, readAccessLog } from './access-log.js'
import { replayAccessLog } from './replay.js'

interface Received {
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

const received: Received[] = []
let server: Server
let baseUrl = ''

/** A fake /api/track: bots → 403, '/excluded' → tracked:false, '/broken' → 400, '/limited' → 429. */
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8')
    })
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>
      received.push({ headers: req.headers, body })
      const reply = (status: number, json: object): void => {
        res.writeHead(status, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(json))
      }
      if (req.url !== '/api/track' || req.method !== 'POST') return reply(404, { error: 'Not Found' })
      if (/bot/i.test(String(req.headers['user-agent'])))
        return reply(403, { success: false, error: 'Bot detected' })
      if (body.pathname === '/excluded')
        return reply(200, { success: true, tracked: false, reason: 'excluded_ip' })
      if (body.pathname === '/broken') return reply(400, { success: false, error: 'Invalid payload' })
      if (body.pathname === '/limited') {
        res.writeHead(429, { 'Retry-After': '60' })
        return res.end('slow down')
      }
      reply(200, { success: true })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

function line(pathAndQuery: string, userAgent = 'Mozilla/5.0 Firefox/27.0', status = 200): AccessLogLine {
  const [pathname = '', querystring = ''] = pathAndQuery.split('?')
  return {
    ip: '203.0.113.9',
    time: new Date('2015-05-17T10:05:03Z'),
    method: 'GET',
    path: pathname,
    querystring,
    status,
    bytes: 100,
    referrer: 'http://ref.example/',
    userAgent,
  }
}

describe('replayAccessLog', () => {
  it('sends only page requests, in log order, with the tracking-script headers and body', async () => {
    received.length = 0
    const lines = [line('/a?x=1'), line('/style.css'), line('/b'), line('/c', '', 404), line('/d', '')]
    const progress: string[] = []
    const result = await replayAccessLog({
      baseUrl: `${baseUrl}/`,
      siteId: 7,
      domain: 'semicomplete.com',
      lines,
      concurrency: 1,
      onProgress: (done, total) => progress.push(`${done}/${total}`),
    })
    expect(result).toEqual({ sent: 3, accepted: 3, rejected: {} })
    expect(progress).toEqual(['0/3', '1/3', '2/3', '3/3'])
    expect(received.map((r) => r.body.pathname)).toEqual(['/a', '/b', '/d'])
    const first = received[0]
    expect(first?.headers['content-type']).toBe('application/json')
    expect(first?.headers.origin).toBe('https://semicomplete.com')
    expect(first?.headers['user-agent']).toBe('Mozilla/5.0 Firefox/27.0')
    expect(first?.headers['x-forwarded-for']).toBe('203.0.113.9')
    expect(first?.headers.authorization).toBeUndefined()
    expect(first?.body).toEqual({
      site_id: '7',
      type: 'pageview',
      hostname: 'semicomplete.com',
      pathname: '/a',
      querystring: 'x=1',
      referrer: 'http://ref.example/',
    })
    expect(received[2]?.headers['user-agent'] ?? '').toBe('')
  })

  it('counts outcomes by status and error without throwing', async () => {
    const lines = [
      line('/ok'),
      line('/ok2'),
      line('/', 'Googlebot/2.1'),
      line('/excluded'),
      line('/broken'),
      line('/limited'),
      line('/limited'),
    ]
    const result = await replayAccessLog({ baseUrl, siteId: 1, domain: 'd.example', lines, concurrency: 3 })
    expect(result).toEqual({
      sent: 7,
      accepted: 2,
      rejected: {
        '403 Bot detected': 1,
        '200 not tracked: excluded_ip': 1,
        '400 Invalid payload': 1,
        '429 Too Many Requests': 2,
      },
    })
  })

  it('counts refused connections as network errors', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const result = await replayAccessLog({
      baseUrl: `http://127.0.0.1:${port}`,
      siteId: 1,
      domain: 'd.example',
      lines: [line('/a'), line('/b')],
    })
    expect(result).toEqual({ sent: 2, accepted: 0, rejected: { network: 2 } })
  })

  it('replays the whole demo log with 16 workers, each page request exactly once', async () => {
    received.length = 0
    const here = path.dirname(fileURLToPath(import.meta.url))
    const demoLog = path.resolve(here, '../../demo-data/elastic-examples-apache_logs.txt')
    const lines = [...readAccessLog(readFileSync(demoLog, 'utf8'))]
    const pages = lines.filter(isPageRequest)
    const result = await replayAccessLog({ baseUrl, siteId: 1, domain: 'semicomplete.com', lines })
    expect(result.sent).toBe(pages.length)
    expect(result.accepted + (result.rejected['403 Bot detected'] ?? 0)).toBe(pages.length)
    expect(Object.keys(result.rejected)).toEqual(['403 Bot detected'])
    const key = (p: string, q: unknown, ip: unknown): string => `${p}?${String(q)} ${String(ip)}`
    const sentKeys = received.map((r) =>
      key(String(r.body.pathname), r.body.querystring, r.headers['x-forwarded-for']),
    )
    const expected = pages.map((p) => key(p.path, p.querystring, p.ip))
    expect(sentKeys.sort()).toEqual(expected.sort())
  })
})
