/**
 * The regex filter check on three RE2 packages: must a pattern compile with RE2 before a query runs
 * (`packages/server/src/query/filters.ts`, `new RE2(pattern)` of the `re2` package, native RE2 built by
 * node-gyp), or would a package that installs without a compiler serve as well?
 *
 * - `re2` (baseline): the project's installed copy.
 * - `re2-wasm`: Google's RE2 compiled to WebAssembly (`new RE2(pattern, 'u')`). Its RE2 object never
 *   frees the compiled pattern in the WebAssembly heap (16 MiB, fixed): the checks here free it by hand
 *   through its internal `wrapper.delete()`, and the last figure counts how many checks the package
 *   takes as published before the heap is exhausted (after that, every call fails).
 * - `re2js`: RE2/J ported to JavaScript (`RE2JS.compile(pattern)`).
 *
 * The alternatives are installed by this script into a temporary folder with npm and an empty cache
 * (the install is timed: download included). With BENCH_RE2_NATIVE_INSTALL=1 the `re2` package is
 * installed the same way, so without a reachable prebuilt binary it compiles RE2 from source (about 10
 * minutes on 2 cores); otherwise its install time is not measured.
 *
 * Printed: install time and size; the time of one check (a compile, as the filter does on a cache miss)
 * for typical filter patterns, in µs and as a ratio to `re2`; each package's verdict on hostile patterns
 * (accepted or refused, and how long it took); and on random patterns, how often each alternative's
 * verdict differs from `re2`'s (RE2 as ClickHouse runs it: a pattern one accepts and ClickHouse refuses
 * fails the query in the store).
 *
 *   npx tsx bench/re2/run.ts
 *   BENCH_RE2_RANDOM=20000 BENCH_RE2_NATIVE_INSTALL=1 npx tsx bench/re2/run.ts
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import NativeRE2 from 're2'
import { positiveInteger } from '../positive-integer.js'

const VERSIONS = { 're2-wasm': '1.0.2', re2js: '2.10.0', re2: '1.24.0' } as const
const RANDOM_PATTERNS = positiveInteger('BENCH_RE2_RANDOM', 5000)
const ROUNDS = 5
const CHECKS_PER_ROUND = 500

/** One package's check: throws with the reason when the pattern is refused. */
type Check = (pattern: string) => void

interface Installed {
  seconds: number | null
  bytes: number
}

/** Install `name@version` into its own folder under `root` with an empty cache; timed. */
function install(root: string, name: string, version: string): { dir: string; installed: Installed } {
  const dir = path.join(root, name)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}')
  const started = performance.now()
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--cache',
      path.join(root, `cache-${name}`),
      '--no-audit',
      '--no-fund',
      `${name}@${version}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const seconds = (performance.now() - started) / 1000
  return { dir, installed: { seconds, bytes: folderBytes(path.join(dir, 'node_modules')) } }
}

function folderBytes(dir: string): number {
  let total = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) total += folderBytes(file)
    else if (entry.isFile()) total += fs.statSync(file).size
  }
  return total
}

/** Typical regex filters (pathnames, referrers, browsers), as the dashboard's users write them. */
const TYPICAL = [
  '^/blog/',
  '\\.html$',
  '(?i)chrome|firefox',
  '^/(en|de|fr)/products/[0-9]+$',
  '^/docs/[a-z-]+/?$',
  '(?:google|bing|duckduckgo)\\.',
  '^/checkout/(step-[1-4]|done)$',
  '(?:^/a/)|(?:^/b/)|(?:\\?utm_source=)',
]

/** Patterns a hostile or careless tenant sends (lengths within the filter's 256 characters). */
const HOSTILE: [label: string, pattern: string][] = [
  ['nested counted repeats', '(a{1000}){1000}'],
  ['repeat over 1000', 'a{1001}'],
  ['deep nested stars', '((((((((((a*)*)*)*)*)*)*)*)*)*)*'],
  ['catastrophic for backtracking', '(x+x+)+y'],
  ['large character classes', '[\\p{L}\\p{N}]{200}[\\p{L}]{50}'],
  ['over the compiled-size limit', '\\pL{1000}'],
  ['over the compiled-size limit, nested', '(?:[\\p{L}\\p{N}]{100}){10}'],
  ['many alternatives', Array.from({ length: 60 }, (_, i) => `w${i}x`).join('|')],
  ['lookahead', '(?=admin)'],
  ['backreference', '(a)\\1'],
  ['named group', '(?P<page>/p/[0-9]+)'],
  ['POSIX class', '[[:alpha:]]+'],
  ['Unicode class, short', '\\pL+'],
  ['any byte', '\\C'],
  ['unbalanced', '(abc'],
  ['reversed range', '[z-a]'],
  ['nothing to repeat', '*a'],
  ['case-folded Unicode', '(?i)straße'],
]

/** A random pattern of 1 to 24 tokens: literals, classes, groups, repeats, anchors and stray syntax. */
function randomPattern(random: () => number): string {
  const tokens = [
    'a',
    'b',
    '/',
    '.',
    '\\.',
    '\\d',
    '\\w',
    '\\s',
    '\\b',
    '^',
    '$',
    '[a-z]',
    '[^/]',
    '[',
    ']',
    '(',
    ')',
    '(?:',
    '(?i)',
    '|',
    '*',
    '+',
    '?',
    '{2}',
    '{1,3}',
    '{1001}',
    '{,2}',
    '\\pL',
    '\\p{Greek}',
    '\\x{41}',
    '\\Q.\\E',
    '\\C',
    '(?P<n>',
    '(?<n>',
    '\\1',
    '(?=',
    '\\z',
    '\\A',
    '[[:digit:]]',
    '\\',
    '}',
    '{',
    '-',
  ]
  const length = 1 + Math.floor(random() * 24)
  let pattern = ''
  for (let i = 0; i < length; i++) pattern += tokens[Math.floor(random() * tokens.length)]
  return pattern
}

/** mulberry32: a small seeded generator, so every run draws the same patterns. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function verdict(check: Check, pattern: string): { ok: boolean; reason: string; ms: number } {
  const started = performance.now()
  try {
    check(pattern)
    return { ok: true, reason: '', ms: performance.now() - started }
  } catch (error) {
    return {
      ok: false,
      reason: (error as Error).message.split('\n')[0] ?? '',
      ms: performance.now() - started,
    }
  }
}

/** Median µs of one check over the typical patterns. */
function checkMicros(check: Check): number {
  const rounds: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    for (let i = 0; i < CHECKS_PER_ROUND; i++) for (const pattern of TYPICAL) check(pattern)
    rounds.push(((performance.now() - started) * 1000) / (CHECKS_PER_ROUND * TYPICAL.length))
  }
  rounds.sort((a, b) => a - b)
  return rounds[Math.floor(rounds.length / 2)] ?? Number.NaN
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-re2-'))
  try {
    const wasm = install(root, 're2-wasm', VERSIONS['re2-wasm'])
    const js = install(root, 're2js', VERSIONS.re2js)
    const native: Installed =
      process.env.BENCH_RE2_NATIVE_INSTALL === '1'
        ? install(root, 're2', VERSIONS.re2).installed
        : {
            seconds: null,
            bytes: folderBytes(path.dirname(createRequire(import.meta.url).resolve('re2/package.json'))),
          }

    /** A new instance of the re2-wasm module (one whose heap was exhausted stays unusable). */
    const loadWasm = () => {
      const require = createRequire(path.join(wasm.dir, 'index.js'))
      for (const key of Object.keys(require.cache)) if (key.startsWith(wasm.dir)) delete require.cache[key]
      return (
        require('re2-wasm') as {
          RE2: new (pattern: string, flags: string) => { wrapper: { delete(): void } }
        }
      ).RE2
    }
    let WasmRE2 = loadWasm()
    const { RE2JS } = (await import(
      pathToFileURL(path.join(js.dir, 'node_modules/re2js/build/index.js')).href
    )) as { RE2JS: { compile(pattern: string): unknown } }

    const nativeCheck: Check = (p) => void new NativeRE2(p)
    const checks: [name: string, check: Check, installed: Installed][] = [
      ['re2 (native)', nativeCheck, native],
      ['re2-wasm', (p) => new WasmRE2(p, 'u').wrapper.delete(), wasm.installed],
      ['re2js', (p) => void RE2JS.compile(p), js.installed],
    ]

    console.log(`RE2 check: node ${process.version}, ${os.cpus().length} CPUs\n`)
    console.log('Install (npm, empty cache) and size:')
    for (const [name, , installed] of checks) {
      const time =
        installed.seconds === null
          ? 'not measured (BENCH_RE2_NATIVE_INSTALL=1)'
          : `${installed.seconds.toFixed(1)} s`
      console.log(`  ${name.padEnd(14)} ${time.padEnd(44)} ${(installed.bytes / 1024).toFixed(0)} KiB`)
    }

    console.log(
      `\nOne check of a typical filter (median of ${ROUNDS} rounds of ${CHECKS_PER_ROUND}x${TYPICAL.length}):`,
    )
    const baseline = checkMicros(nativeCheck)
    for (const [name, check] of checks) {
      const micros = check === nativeCheck ? baseline : checkMicros(check)
      console.log(
        `  ${name.padEnd(14)} ${micros.toFixed(1).padStart(8)} µs   ${(micros / baseline).toFixed(2)}x re2`,
      )
    }

    const random = seeded(47)
    const patterns = Array.from({ length: RANDOM_PATTERNS }, () => randomPattern(random))
    const nativeVerdicts = patterns.map((p) => verdict(nativeCheck, p).ok)
    const accepted = nativeVerdicts.filter(Boolean).length
    console.log(
      `\nRandom patterns: ${RANDOM_PATTERNS} (re2 accepts ${accepted}); verdicts that differ from re2's:`,
    )
    for (const [name, check] of checks.slice(1)) {
      let acceptsRefused = 0
      let refusesAccepted = 0
      const examples: string[] = []
      patterns.forEach((pattern, i) => {
        const ok = verdict(check, pattern).ok
        if (ok === nativeVerdicts[i]) return
        if (ok) acceptsRefused++
        else refusesAccepted++
        if (examples.length < 4) examples.push(`${ok ? '+' : '-'}${JSON.stringify(pattern)}`)
      })
      console.log(
        `  ${name.padEnd(14)} accepts ${acceptsRefused} that re2 refuses, refuses ${refusesAccepted} that re2 accepts` +
          (examples.length > 0 ? `   e.g. ${examples.join(' ')}` : ''),
      )
    }

    // The package as published frees nothing: how far it goes (then the module is unusable, and reloaded).
    let checked = 0
    let failure = ''
    try {
      for (; checked < 10_000_000; checked++) new WasmRE2(TYPICAL[checked % TYPICAL.length] ?? '', 'u')
    } catch (error) {
      failure = ((error as Error).message.split('\n')[0] ?? '').slice(0, 90)
    }
    console.log(
      `\nre2-wasm as published (nothing freed): ${failure ? `${checked} checks of typical filters, then: ${failure}` : `${checked} checks without failing`}`,
    )
    WasmRE2 = loadWasm()

    console.log('\nHostile patterns: verdict (ms):')
    for (const [label, pattern] of HOSTILE) {
      console.log(`  ${label}: ${pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern}`)
      for (const [name, check] of checks) {
        const v = verdict(check, pattern)
        // An exhausted WebAssembly heap aborts the module for good: the next patterns get a new one.
        if (name === 're2-wasm' && v.reason.startsWith('abort(')) WasmRE2 = loadWasm()
        console.log(
          `    ${name.padEnd(14)} ${(v.ok ? 'accepted' : `refused: ${v.reason.slice(0, 70)}`).padEnd(82)} ${v.ms.toFixed(2).padStart(8)} ms`,
        )
      }
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

await main()
