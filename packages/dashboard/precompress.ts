/**
 * A Vite build plugin that writes `<file>.br` and `<file>.gz` next to each emitted text file of at
 * least 1 KiB (scripts, styles, HTML, SVG), at maximum compression: the server serves them to clients
 * that accept the encoding, so nothing is compressed per request.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Plugin } from 'vite'

const COMPRESSIBLE = /\.(js|css|html|svg|json)$/
const MIN_BYTES = 1024

/** @returns the plugin; it runs only for `vite build`. */
export function precompress(): Plugin {
  return {
    name: 'pathlight-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue
        const source = output.type === 'chunk' ? output.code : output.source
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source)
        if (bytes.length < MIN_BYTES) continue
        const file = path.join(dir, fileName)
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }))
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        )
      }
    },
  }
}
