/**
 * The server's build: `src/cli.ts` and everything it imports from this package and the workspace's
 * TypeScript packages (`@pathlight/protocol`, `@pathlight/tracker/build`) bundled by esbuild into one ES
 * module, `dist/cli.js` (with a source map), which `bin/pathlight.js` runs with plain `node`. npm
 * packages stay external: Node loads them from node_modules as usual (native ones such as chdb and
 * better-sqlite3 could not be bundled anyway). Run by `npm ci` (the root `prepare`) and by
 * `npm run build -w @pathlight/server`; about a second.
 */
import fs from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'

const root = import.meta.dirname
const outdir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'dist')

/** Bare imports of npm packages stay imports; the workspace's own packages (TypeScript) are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@pathlight/') ? undefined : { path: args.path, external: true },
    )
  },
}

// Built beside the output, then swapped in: a server started meanwhile from the output (a test beside
// the build's own test, `npm start` while rebuilding) never finds it half written or gone.
const staging = `${outdir}.building-${process.pid}`
fs.rmSync(staging, { recursive: true, force: true })
const result = await build({
  entryPoints: [path.join(root, 'src/cli.ts')],
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  plugins: [externalPackages],
  logLevel: 'warning',
  metafile: true,
})
const previous = `${outdir}.previous-${process.pid}`
if (fs.existsSync(outdir)) fs.renameSync(outdir, previous)
fs.renameSync(staging, outdir)
fs.rmSync(previous, { recursive: true, force: true })
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
console.log(`built ${path.relative(process.cwd(), outdir) || '.'} (${(bytes / 1024).toFixed(0)} KB)`)
