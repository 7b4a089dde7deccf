/**
 * The published package: `npm pack` (whose prepack runs the build) into a temporary directory, unpacked into
 * a scratch project's node_modules outside the workspace. From there `import` resolves to the ESM build,
 * `require` to the CommonJS build, both work, and the bundled declarations type-check for ESM and CommonJS
 * consumers (strict, no @types at all). No network.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const tscBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
)
let tmp: string
let scratch: string
let packed: { filename: string; files: { path: string }[] }

/** The environment without npm's per-run variables (when the suite itself runs under `npm test`). */
const cleanEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-node-pack-'))
  const output = run('npm', ['pack', '--pack-destination', tmp, '--json', '--offline'], packageDir)
  // The build prints its summary on stdout before npm's JSON.
  const parsed = JSON.parse(output.slice(output.indexOf('[\n'))) as (typeof packed)[]
  packed = parsed[0] as typeof packed
  scratch = path.join(tmp, 'scratch')
  const target = path.join(scratch, 'node_modules', '@pathlight')
  fs.mkdirSync(target, { recursive: true })
  run('tar', ['-xzf', path.join(tmp, packed.filename), '-C', tmp], tmp)
  fs.renameSync(path.join(tmp, 'package'), path.join(target, 'node'))
  fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }))
}, 60_000)
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
})

it('packs dist, README and package.json only, with no runtime dependencies', () => {
  expect(packed.files.map((file) => file.path).sort()).toEqual([
    'README.md',
    'dist/index.cjs',
    'dist/index.d.cts',
    'dist/index.d.ts',
    'dist/index.mjs',
    'package.json',
  ])
  const manifest = JSON.parse(
    fs.readFileSync(path.join(scratch, 'node_modules/@pathlight/node/package.json'), 'utf8'),
  ) as Record<string, unknown>
  expect(manifest.dependencies).toBeUndefined()
  expect(manifest.engines).toEqual({ node: '>=18' })
  for (const file of ['dist/index.d.ts', 'dist/index.d.cts']) {
    const types = fs.readFileSync(path.join(scratch, 'node_modules/@pathlight/node', file), 'utf8')
    expect(types).toContain('export declare class Pathlight')
    expect(types).toContain('export declare function verifyWebhookSignature')
  }
})

/** Shared by both scripts: construct, check a TypeError, and get a network error from a closed port. */
const exercise = `
  const assert = (condition, message) => { if (!condition) { console.error(message); process.exit(1) } }
  assert(typeof m.Pathlight === 'function' && typeof m.verifyWebhookSignature === 'function', 'exports')
  let typeError
  try { new m.Pathlight({ siteId: 1, apiKey: 'k' }) } catch (error) { typeError = error }
  assert(typeError instanceof TypeError && /^analyticsHost/.test(typeError.message), 'constructor check')
  const options = { analyticsHost: 'http://127.0.0.1:9/api', siteId: 1, apiKey: 'k', maxRetries: 0 }
  const client = new m.Pathlight(options)
  const error = await client.pageview().catch((e) => e)
  assert(error instanceof m.PathlightNetworkError && error instanceof m.PathlightError, 'network error class')
  assert(m.verifyWebhookSignature('{}', 'nope', 's') === false, 'webhook')
  console.log(JSON.stringify({ resolved, name: error.name, kind: error.kind, attempts: error.attempts }))
`

it('import() resolves to dist/index.mjs and works from a scratch project', () => {
  fs.writeFileSync(
    path.join(scratch, 'esm.mjs'),
    `import * as m from '@pathlight/node'\n` +
      `const resolved = import.meta.resolve('@pathlight/node')\n${exercise}`,
  )
  const result = JSON.parse(run(process.execPath, ['esm.mjs'], scratch)) as Record<string, unknown>
  expect(result).toEqual({
    resolved: expect.stringMatching(/scratch\/node_modules\/@pathlight\/node\/dist\/index\.mjs$/),
    name: 'PathlightNetworkError',
    kind: 'network',
    attempts: 1,
  })
})

it('require() resolves to dist/index.cjs and works from a scratch project', () => {
  fs.writeFileSync(
    path.join(scratch, 'cjs.cjs'),
    `const m = require('@pathlight/node')\nconst resolved = require.resolve('@pathlight/node')\n` +
      `;(async () => {${exercise}})()`,
  )
  const result = JSON.parse(run(process.execPath, ['cjs.cjs'], scratch)) as Record<string, unknown>
  expect(result).toEqual({
    resolved: expect.stringMatching(/scratch\/node_modules\/@pathlight\/node\/dist\/index\.cjs$/),
    name: 'PathlightNetworkError',
    kind: 'network',
    attempts: 1,
  })
})

it('the declarations type-check for ESM (.mts) and CommonJS (.cts) consumers without @types', () => {
  const consumer = (importLine: string) => `${importLine}
const client = new Pathlight({ analyticsHost: 'https://a.example/api', siteId: 1, apiKey: 'k', debug: true })
export const sent: Promise<{ success: true; tracked?: false }> =
  client.event('signup', { pathname: '/' }, { tags: ['a'] })
// @ts-expect-error object values are not properties
void client.event('signup', {}, { plan: { name: 'pro' } })
// @ts-expect-error apiKey is required
void new Pathlight({ analyticsHost: 'https://a.example/api', siteId: 1 })
export const check = (error: unknown): number | undefined =>
  error instanceof PathlightRateLimitError ? error.retryAfterSeconds : undefined
export const verified: boolean = verifyWebhookSignature(new Uint8Array(), 'x', 'secret')
`
  fs.writeFileSync(
    path.join(scratch, 'esm.mts'),
    consumer("import { Pathlight, PathlightRateLimitError, verifyWebhookSignature } from '@pathlight/node'"),
  )
  fs.writeFileSync(
    path.join(scratch, 'cjs.cts'),
    consumer(
      "import pathlight = require('@pathlight/node')\n" +
        'const { Pathlight, PathlightRateLimitError, verifyWebhookSignature } = pathlight',
    ),
  )
  fs.writeFileSync(
    path.join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        // node16: a CommonJS file may not require ESM types, so this also proves `require` gets CJS types.
        module: 'node16',
        moduleResolution: 'node16',
        lib: ['es2022'],
        types: [],
      },
      files: ['esm.mts', 'cjs.cts'],
    }),
  )
  const explained = run(process.execPath, [tscBin, '-p', 'tsconfig.json', '--explainFiles'], scratch)
  expect(explained).toMatch(/node_modules\/@pathlight\/node\/dist\/index\.d\.ts/)
  expect(explained).toMatch(/node_modules\/@pathlight\/node\/dist\/index\.d\.cts/)
})
