/**
 * The server's log: Fastify's pino logger, as JSON lines (for log collectors; the default off a
 * terminal) or as one readable line per entry through pino-pretty (on a terminal, or `LOG_FORMAT=pretty`),
 * and one line per answered request: `GET /api/sites/1/stats 200 12.3 ms`.
 *
 * Request lines are `info`, but `debug` for the dashboard's own files (the `GET /*` route: a page load
 * fetches a dozen), and not written at all for `QUIET_ROUTES` unless ACCESS_LOG (`app.ts` sets those
 * routes' level to `warn`). One-time secrets in URLs (the tokens of invitation, password reset and
 * subscription links) are written as `***`.
 */
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import pretty from 'pino-pretty'

/** The route that serves the dashboard's files and pages (`dashboard.ts`). */
const DASHBOARD_ROUTE = '/*'

/**
 * Fastify's `logger` option.
 * @param level pino's level name; undefined or `silent`: no logger
 * @param format `pretty`: readable lines written synchronously to stdout (colours when it is a
 *   terminal); `json` (default): pino's JSON lines
 */
export function loggerOptions(
  level: string | undefined,
  format: 'pretty' | 'json' = 'json',
): FastifyServerOptions['logger'] {
  if (!level || level === 'silent') return false
  if (format === 'json') return { level }
  return {
    level,
    stream: pretty({
      sync: true,
      colorize: Boolean(process.stdout.isTTY),
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true,
    }),
  }
}

/** Path prefixes whose next segment is a one-time secret (a link's token). */
const SECRET_SEGMENT =
  /^(\/api\/invitations\/|\/invitations\/|\/api\/auth\/reset-password\/|\/api\/email-reports\/subscriptions\/|\/email-reports\/(?:confirm|unsubscribe)\/|\/api\/alerts\/subscriptions\/|\/alerts\/(?:confirm|unsubscribe)\/)[^/?#]+/

/** `url` as the log writes it: the token of a link path and any `token` query value replaced by `***`. */
export function loggedUrl(url: string): string {
  return url.replace(SECRET_SEGMENT, '$1***').replace(/([?&]token=)[^&#]*/g, '$1***')
}

/**
 * `onResponse` hook: the request's one log line, with its method, URL, status and time in ms (and, in
 * JSON, `req`, `res` and `responseTime` as fields).
 */
export async function logRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const ms = Math.round(reply.elapsedTime * 10) / 10
  const entry = {
    req: { method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip },
    res: { statusCode: reply.statusCode },
    responseTime: ms,
  }
  const line = `${request.method} ${entry.req.url} ${reply.statusCode} ${ms} ms`
  if (request.routeOptions.url === DASHBOARD_ROUTE) request.log.debug(entry, line)
  else request.log.info(entry, line)
}
