#!/usr/bin/env node
// Runs the compiled server, dist/cli.js, with plain node. `npm ci` builds it (the root `prepare`);
// after changing the sources: `npm run build -w @pathlight/server`, or run them directly with
// `npm run dev -w @pathlight/server` (tsx).
import fs from 'node:fs'

const entry = new URL('../dist/cli.js', import.meta.url)
if (!fs.existsSync(entry)) {
  console.error('Pathlight is not built yet: run `npm run build -w @pathlight/server` (npm ci does it).')
  process.exit(1)
}
await import(entry.href)
