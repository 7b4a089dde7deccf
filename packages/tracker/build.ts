/**
 * Build of the browser tracking script with esbuild's JS API: the core (`src/tracker.ts`), the
 * web-vitals chunk (`src/vitals.ts`), the engagement chunk (`src/engagement.ts`), the heatmap chunk (`src/heatmap.ts`) and the session replay recorder (`src/replay.ts`, with rrweb's
 * `record`), each one minified ES2017 IIFE. The server calls it once and caches
 * the result, so `npm ci && npm start` serves the script without a separate build step.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { build, type Plugin } from 'esbuild'

/** The built files. */
export interface TrackerBuild {
  /** The core script, served at `/api/script.js`. */
  core: string
  /** The web-vitals chunk, served at `/api/script-vitals.js`. */
  vitals: string
  /** The chunk's content hash (12 hex digits); the core requests `script-vitals.js?v=<vitalsHash>`. */
  vitalsHash: string
  /** The engagement chunk (scroll depth, engaged time), served at `/api/script-engagement.js`. */
  engagement: string
  /** Its content hash (12 hex digits); the core requests `script-engagement.js?v=<engagementHash>`. */
  engagementHash: string
  /** The heatmap chunk (click recording, the viewing link's overlay), served at `/api/script-heatmap.js`. */
  heatmap: string
  /** Its content hash (12 hex digits); the core requests `script-heatmap.js?v=<heatmapHash>`. */
  heatmapHash: string
  /** The session replay recorder, served at `/api/script-replay.js`. */
  replay: string
  /** The recorder's content hash (12 hex digits); the core requests `script-replay.js?v=<replayHash>`. */
  replayHash: string
}

const VITALS_BANNER = '/*! Pathlight web vitals, with web-vitals (c) Google LLC, Apache-2.0 */'
const REPLAY_BANNER =
  '/*! Pathlight session replay, with rrweb (c) Contributors (https://www.rrweb.io), MIT */'

/**
 * The tracker's sources, found through the package's own export rather than this module's location:
 * the server's build bundles this file into `packages/server/dist/`, where a path relative to the
 * module would point nowhere.
 */
const SOURCES = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@pathlight/tracker/build')),
  'src',
)

const hashOf = (code: string) => crypto.createHash('sha256').update(code).digest('hex').slice(0, 12)

/**
 * rrweb's single-file build inlines PostCSS (twice), which only its replayer uses (`adaptCssForReplay`),
 * behind module-level calls esbuild must keep: the inlined CommonJS modules are run unannotated and their
 * exports read in bare statements. This marks those runs pure, drops the bare reads and makes the one
 * remaining reference a function, so the recorder sheds PostCSS (most of its size). If a later rrweb
 * changes the shape, nothing matches and the chunk is merely larger (`test/size.test.ts` then fails).
 */
const rrwebWithoutPostcss: Plugin = {
  name: 'rrweb-without-postcss',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]rrweb[\\/]dist[\\/]rrweb\.js$/ }, async ({ path }) => ({
      loader: 'js',
      contents: (await fs.promises.readFile(path, 'utf8'))
        .replace(/^import_postcss(\$1)?\.default(\.\w+)?;$/gm, '')
        .replace(
          /^(var import_postcss(?:\$1)? = \/\* @__PURE__ \*\/ __toESM(?:\$1)?\()\(/gm,
          '$1/* @__PURE__ */ (',
        )
        .replace(
          /^var postcss_default = import_postcss\$1\.default;$/m,
          'var postcss_default = (...args) => import_postcss$1.default(...args);',
        ),
    }))
  },
}

async function bundle(entry: string, define: Record<string, string> = {}, banner = ''): Promise<string> {
  const result = await build({
    entryPoints: [path.join(SOURCES, entry)],
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
    plugins: [rrwebWithoutPostcss],
  })
  const file = result.outputFiles[0]
  if (!file) throw new Error(`esbuild produced no output for ${entry}`)
  return file.text
}

/**
 * Build the five files. @throws the esbuild error when a source does not compile
 */
export async function buildTracker(): Promise<TrackerBuild> {
  const [vitals, engagement, heatmap, replay] = await Promise.all([
    bundle('vitals.ts', {}, VITALS_BANNER),
    bundle('engagement.ts'),
    bundle('heatmap.ts'),
    bundle('replay.ts', {}, REPLAY_BANNER),
  ])
  const vitalsHash = hashOf(vitals)
  const engagementHash = hashOf(engagement)
  const heatmapHash = hashOf(heatmap)
  const replayHash = hashOf(replay)
  const core = await bundle('tracker.ts', {
    __VITALS_FILE__: JSON.stringify(`script-vitals.js?v=${vitalsHash}`),
    __ENGAGEMENT_FILE__: JSON.stringify(`script-engagement.js?v=${engagementHash}`),
    __HEATMAP_FILE__: JSON.stringify(`script-heatmap.js?v=${heatmapHash}`),
    __REPLAY_FILE__: JSON.stringify(`script-replay.js?v=${replayHash}`),
  })
  return { core, vitals, vitalsHash, engagement, engagementHash, heatmap, heatmapHash, replay, replayHash }
}
