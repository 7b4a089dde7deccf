/**
 * The package as users load it by name: `npm ci` at the repository's root builds `dist/`, and both
 * entry points resolve through the workspace link (as they would from a tarball made by `npm pack`).
 */
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

describe('@pathlight/node by name', () => {
  it('loads as ESM and as CommonJS from its build', async () => {
    const esm = await import('@pathlight/node')
    expect(typeof esm.Pathlight).toBe('function')
    expect(typeof esm.verifyWebhookSignature).toBe('function')
    const cjs = createRequire(import.meta.url)('@pathlight/node')
    expect(typeof cjs.Pathlight).toBe('function')
    expect(createRequire(import.meta.url).resolve('@pathlight/node')).toMatch(
      /packages\/node\/dist\/index\.cjs$/,
    )
  })
})
