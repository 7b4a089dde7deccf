/**
 * Vite build of the dashboard: `dist/index.html` plus content-hashed files under `dist/assets/`, each
 * text file also brotli- and gzip-compressed beside it (the server sends those when accepted).
 * `npm run dev -w @pathlight/dashboard` serves the app with hot reload and proxies `/api` to a server
 * on 127.0.0.1:3000; the Host header is kept (no changeOrigin) so Better Auth trusts the dev origin.
 */
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompress } from './precompress.ts'

export default defineConfig({
  base: '/',
  plugins: [react(), precompress()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000' } },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    // No inline data: URLs for assets, so the server's CSP can stay strict.
    assetsInlineLimit: 0,
  },
})
