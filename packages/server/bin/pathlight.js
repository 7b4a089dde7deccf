#!/usr/bin/env node
// Runs the compiled server, dist/cli.js, with plain node. `npm ci` builds it (the root `prepare`);
// after changing the sources: `npm run build -w @pathlight/server`, or run them directly with
// `npm run dev -w @pathlight/server` (tsx). Inside a test run, PATHLIGHT_TEST_SERVER_BUNDLE names the
// bundle of the current sources that the run made (src/testing/test-run-setup.ts): tests that start
// the server as users do (`npm start`, `npm run demo`) then run the sources under test, not dist/.
import fs from 'node:fs'
import { pathToFileURL } from 'node:url'

const testBundle = process.env.PATHLIGHT_TEST_SERVER_BUNDLE
const entry = testBundle ? pathToFileURL(testBundle) : new URL('../dist/cli.js', import.meta.url)
if (!fs.existsSync(entry)) {
  console.error('Pathlight is not built yet: run `npm run build -w @pathlight/server` (npm ci does it).')
  process.exit(1)
}
await import(entry.href)
