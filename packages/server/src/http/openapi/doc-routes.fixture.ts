/**
 * Routes with docs for the document builder's unit tests, written as `{'<METHOD> <url>': doc}` the
 * way an app's `routeList` would hold them.
 */
import type { RouteInfo } from '../../app.js'
import type { RouteDoc } from './route-doc.js'

/** `{'GET /x': doc}` -> `[{method: 'GET', url: '/x', doc}]`. */
export function docRoutes(docs: Record<string, RouteDoc>): RouteInfo[] {
  return Object.entries(docs).map(([key, doc]) => {
    const [method = '', url = ''] = key.split(' ')
    return { method, url, doc }
  })
}
