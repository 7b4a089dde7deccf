/**
 * Build of the browser tracking script with esbuild's JS API: the core (`src/tracker.ts`) and the
 * web-vitals chunk (`src/vitals.ts`), each one minified ES2017 IIFE. The server calls it once and caches
 * the result, so `npm ci && npm start` serves the script without a separate build step.
 */
import crypto from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** The built files. */
export interface TrackerBuild {
  /** The core script, served at `/api/script.js`. */
  core: string
  /** The web-vitals chunk, served at `/api/script-vitals.js`. */
  vitals: string
  /** The chunk's content hash (12 hex digits); the core requests `script-vitals.js?v=<vitalsHash>`. */
  vitalsHash: string
}

const VITALS_BANNER = '/*! Pathlight web vitals, with web-vitals (c) Google LLC, Apache-2.0 */'

async function bundle(entry: string, define: Record<string, string> = {}, banner = ''): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`./src/${entry}`, import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2017',
    charset: 'utf8',
    legalComments: 'none',
    banner: { js: banner },
    define,
    write: false,
    logLevel: 'silent',
  })
  const file = result.outputFiles[0]
  if (!file) throw new Error(`esbuild produced no output for ${entry}`)
  return file.text
}

/**
 * Build both files (about 100 ms). @throws the esbuild error when a source does not compile
 */
export async function buildTracker(): Promise<TrackerBuild> {
  const vitals = await bundle('vitals.ts', {}, VITALS_BANNER)
  const vitalsHash = crypto.createHash('sha256').update(vitals).digest('hex').slice(0, 12)
  const core = await bundle('tracker.ts', {
    __VITALS_FILE__: JSON.stringify(`script-vitals.js?v=${vitalsHash}`),
  })
  return { core, vitals, vitalsHash }
}
