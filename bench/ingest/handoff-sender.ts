/**
 * `handoff-cost.ts`'s design (b) HTTP worker: sends `events` tracked requests to the writer (its parent)
 * over the IPC channel, `batch` per message, four batches in flight, then `'done'`.
 */
const [events, batch] = process.argv.slice(2).map(Number) as [number, number]
const request = {
  body: '{"site_id":"1","type":"pageview","hostname":"example.com","pathname":"/pricing","referrer":"https://news.example/"}',
  ip: '203.0.113.7',
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  authorization: null,
  origin: 'https://example.com',
}
let sent = 0
let answered = 0
const next = () => {
  if (sent >= events) return
  process.send?.({ requests: Array.from({ length: batch }, () => request) })
  sent += batch
}
process.on('message', (message: unknown) => {
  if (message === 'go') {
    for (let k = 0; k < 4; k++) next()
    return
  }
  answered += (message as unknown[]).length
  if (answered >= events) process.send?.('done')
  else next()
})
process.send?.('ready')
