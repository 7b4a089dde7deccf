/**
 * Security headers: those of the HTML pages the service serves (the dashboard and the
 * API reference at `/api/docs`), and the optional Strict-Transport-Security header on every answer.
 */
import type { FastifyInstance } from 'fastify'

/**
 * The headers of an HTML page: its Content-Security-Policy, no MIME sniffing, never framed, and the
 * referrer kept to this origin.
 */
export function htmlPageHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  }
}

/**
 * Send `Strict-Transport-Security: max-age=<maxAgeSeconds>; includeSubDomains` on every answer
 * (HSTS_MAX_AGE; 0 sends none). Browsers heed it only over https, so it belongs behind an https BASE_URL.
 */
export function registerHsts(app: FastifyInstance, maxAgeSeconds: number): void {
  if (maxAgeSeconds <= 0) return
  const value = `max-age=${maxAgeSeconds}; includeSubDomains`
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('strict-transport-security', value)
    return payload
  })
}
