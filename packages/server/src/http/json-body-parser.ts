/**
 * The JSON body parser of every route that takes `application/json` as Fastify parses it (all but
 * `/api/track`, `/api/replay` and the import, which read their bodies themselves): Fastify's own parser
 * (prototype-poisoning keys refused), then the nesting bound `MAX_JSON_DEPTH`. A body nested deeper
 * answers 400 `Invalid <bodySubject>: <field>: nested more than 512 levels deep` with
 * `details.fieldErrors`, before any handler (or a serializer that would exhaust the stack) sees it.
 */
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../shared/errors.js'
import { tooDeep } from '../shared/too-deep.js'

/** Replace `app`'s `application/json` parser (its scopes inherit it). */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, String(body), (error, value) => {
      if (error) return done(error, undefined)
      const deep = tooDeep(value)
      if (!deep) return done(null, value)
      const subject = request.routeOptions.config.contract?.bodySubject ?? 'body'
      done(badRequest(`Invalid ${subject}: ${deep.message}`, deep.details), undefined)
    })
  })
}
