/**
 * A load generator of its own process (so that its CPU and connections do not distort another's
 * figures): sends `spec.requests[i % n]` `spec.rate` times a second for `spec.seconds` seconds, on
 * schedule whatever the answers (an open loop), each given `spec.timeoutMs`, then prints one JSON line:
 * `[[status, ms, error?], ...]` in sending order, status 0 for no answer (a timeout, a refused
 * connection), with the error's code or name.
 *
 * The spec is the JSON of the environment variable OPEN_LOOP_SPEC:
 * `{ base, rate, seconds, timeoutMs, requests: [{ url, method?, headers?, body? }] }`.
 */
const spec = JSON.parse(process.env.OPEN_LOOP_SPEC ?? '{}')

const send = async ({ url, method = 'GET', headers = {}, body }) => {
  const started = performance.now()
  try {
    const response = await fetch(`${spec.base}${url}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(spec.timeoutMs),
    })
    await response.arrayBuffer()
    return [response.status, performance.now() - started]
  } catch (error) {
    return [0, performance.now() - started, String(error?.cause?.code ?? error?.name ?? error)]
  }
}

const answers = []
const started = performance.now()
for (let i = 0; i < spec.rate * spec.seconds; i++) {
  const wait = started + (i * 1000) / spec.rate - performance.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  answers.push(send(spec.requests[i % spec.requests.length]))
}
console.log(JSON.stringify(await Promise.all(answers)))
