/**
 * Where a CPU profile of the server under the ingest load went, by kind of work: each sample goes to
 * the innermost frame on its stack that names a kind (so a `write(2)` under the journal's append counts
 * as journal, one under an HTTP reply as HTTP). Only samples from `skipMs` after the first one with
 * the pipeline on its stack (a function of {@link pipelineMarks}) to the last such one count, which
 * leaves start-up, a warm-up and shutdown out.
 */

/** A V8 CPU profile (`--cpu-prof`), the parts read here. */
export interface CpuProfile {
  nodes: {
    id: number
    callFrame: { functionName: string; url: string; lineNumber: number }
    children?: number[]
  }[]
  samples: number[]
  timeDeltas: number[]
}

/** The kinds of work, in the order they are printed. */
export const workKinds = [
  'HTTP (Fastify, node:http, sockets, body parse)',
  'validation (payload schema)',
  'enrichment: user agent',
  'enrichment: isbot',
  'enrichment: geoip',
  'enrichment: session, user id, channel',
  'pipeline: other stages, site, key',
  'journal (encode, append)',
  'chDB insert',
  'logging',
  'async plumbing (promises, ticks)',
  'garbage collector',
  'other / unattributed',
  'idle',
] as const

export type WorkKind = (typeof workKinds)[number]

const byFunction: Record<string, WorkKind> = {
  parsePayload: 'validation (payload schema)',
  putUserAgent: 'enrichment: user agent',
  parseUserAgent: 'enrichment: user agent',
  parseCached: 'enrichment: user agent',
  parseUncached: 'enrichment: user agent',
  decideDeviceType: 'enrichment: user agent',
  dropBots: 'enrichment: isbot',
  putGeolocation: 'enrichment: geoip',
  lookup: 'enrichment: geoip',
  lookupUncached: 'enrichment: geoip',
  decodeMmdbValue: 'enrichment: geoip',
  byteAt: 'enrichment: geoip',
  parseIp: 'enrichment: geoip',
  putSession: 'enrichment: session, user id, channel',
  putUserId: 'enrichment: session, user id, channel',
  putChannel: 'enrichment: session, user id, channel',
  toChannel: 'enrichment: session, user id, channel',
  hostOfReferrer: 'enrichment: session, user id, channel',
  parseUtm: 'enrichment: session, user id, channel',
  accept: 'pipeline: other stages, site, key',
  toEventRow: 'pipeline: other stages, site, key',
  authenticateKey: 'pipeline: other stages, site, key',
  checkDomain: 'pipeline: other stages, site, key',
  checkQuota: 'pipeline: other stages, site, key',
  dropRepeatedEvent: 'pipeline: other stages, site, key',
  dropExcludedCountry: 'pipeline: other stages, site, key',
  encodeEventRow: 'journal (encode, append)',
  scheduleAppend: 'journal (encode, append)',
  append: 'journal (encode, append)',
  rotate: 'journal (encode, append)',
  serial: 'journal (encode, append)',
  insertEncoded: 'chDB insert',
  rawInsert: 'chDB insert',
  '(garbage collector)': 'garbage collector',
  '(idle)': 'idle',
  '(program)': 'other / unattributed',
  runMicrotasks: 'async plumbing (promises, ticks)',
  processTicksAndRejections: 'async plumbing (promises, ticks)',
}

const byUrl: [RegExp, WorkKind][] = [
  [/node_modules\/(chdb|@clickhouse)\//, 'chDB insert'],
  [/node_modules\/zod\//, 'validation (payload schema)'],
  [/node_modules\/ua-parser-js\//, 'enrichment: user agent'],
  [/node_modules\/isbot\//, 'enrichment: isbot'],
  [/node_modules\/(pino|sonic-boom|thread-stream)\//, 'logging'],
  [
    /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|secure-json-parse|fast-json-stringify)/,
    'HTTP (Fastify, node:http, sockets, body parse)',
  ],
  [/^node:(_http|http|net|internal\/stream|stream)/, 'HTTP (Fastify, node:http, sockets, body parse)'],
  [/^node:internal\/fs/, 'journal (encode, append)'],
]

/** Functions that only run for tracked events: the first and last sample with one bound the window. */
export const pipelineMarks = new Set([
  'accept',
  'parsePayload',
  'putGeolocation',
  'putUserAgent',
  'encodeEventRow',
])

/** The kind of one frame, or undefined when it says nothing (a native call, a helper). */
function kindOfFrame(functionName: string, url: string): WorkKind | undefined {
  for (const [pattern, kind] of byUrl) if (pattern.test(url)) return kind
  if (url.includes('node_modules/') || !Object.hasOwn(byFunction, functionName)) return undefined
  return byFunction[functionName]
}

/** Milliseconds per kind of work over the load window, and that window's length. */
export function splitProfile(
  profile: CpuProfile,
  skipMs = 0,
): { ms: Map<WorkKind, number>; windowMs: number } {
  const parent = new Map<number, number>()
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]))
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const kindOf = new Map<number, WorkKind>()
  const inPipeline = new Map<number, boolean>()
  const resolve = (id: number): { kind: WorkKind; pipeline: boolean } => {
    const known = kindOf.get(id)
    if (known) return { kind: known, pipeline: inPipeline.get(id) ?? false }
    const node = nodeById.get(id)
    const up = parent.get(id)
    const above =
      up === undefined ? { kind: 'other / unattributed' as WorkKind, pipeline: false } : resolve(up)
    const own = node ? kindOfFrame(node.callFrame.functionName, node.callFrame.url) : undefined
    // Leaf-most kind wins: this frame's own kind if it has one, else the nearest ancestor's.
    const kind = own ?? above.kind
    const pipeline = above.pipeline || pipelineMarks.has(node?.callFrame.functionName ?? '')
    kindOf.set(id, kind)
    inPipeline.set(id, pipeline)
    return { kind, pipeline }
  }
  // A native leaf (`read`, `writev`) has no kind of its own and takes its caller's; a sample whose
  // whole stack is native (the event loop's socket reads) counts as HTTP.
  const first = profile.samples.findIndex((id) => resolve(id).pipeline)
  let last = -1
  profile.samples.forEach((id, i) => {
    if (resolve(id).pipeline) last = i
  })
  const ms = new Map<WorkKind, number>(workKinds.map((kind) => [kind, 0]))
  let windowMs = 0
  let sinceFirst = 0
  for (let i = Math.max(first, 0); i <= last; i++) {
    const id = profile.samples[i] as number
    const time = (profile.timeDeltas[i] ?? 0) / 1000
    sinceFirst += time
    if (sinceFirst < skipMs) continue
    windowMs += time
    let { kind } = resolve(id)
    const node = nodeById.get(id)
    if (
      kind === 'other / unattributed' &&
      node &&
      node.callFrame.url === '' &&
      parent.get(id) !== undefined
    ) {
      const name = node.callFrame.functionName
      if (name === 'read' || name === 'writev' || name === 'writeBuffer' || name === 'writeUtf8String')
        kind = 'HTTP (Fastify, node:http, sockets, body parse)'
    }
    ms.set(kind, (ms.get(kind) ?? 0) + time)
  }
  return { ms, windowMs }
}

/** The split as printable lines: kind, ms, share of the window, share of the busy (non-idle) time. */
export function formatSplit(split: { ms: Map<WorkKind, number>; windowMs: number }): string {
  const busy = split.windowMs - (split.ms.get('idle') ?? 0)
  return [...split.ms]
    .map(
      ([kind, ms]) =>
        `  ${kind.padEnd(48)} ${ms.toFixed(0).padStart(7)} ms ${((ms / split.windowMs) * 100).toFixed(1).padStart(5)}%` +
        (kind === 'idle' ? '' : ` ${((ms / busy) * 100).toFixed(1).padStart(5)}% of busy`),
    )
    .join('\n')
}
