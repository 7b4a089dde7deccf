/**
 * The signed-in user's own endpoints: API keys (create, list, delete; any caller), and sessions and
 * password (the session cookie only: a key must not sign its user out or take over the account).
 */
import { z } from 'zod'
import { changePasswordBody, createApiKeyBody, MAX_API_KEYS_PER_USER } from '../account-input.js'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import {
  apiKey,
  createdApiKey,
  ownSession,
  successData,
  successList,
  successResponse,
} from '../response-schemas.js'
import * as at from './addresses.js'

/** `POST /api/user/api-keys`: create a key; answers it with its value, shown once. */
export const createApiKeyEndpoint = endpoint({
  ...at.createApiKey,
  summary: 'Create an API key',
  description:
    'The value is shown once; Pathlight stores its SHA-256. `scope` (default `full`) limits what the ' +
    'key may do: `track` only sends events (what a server-side client needs), `read` reads reports and ' +
    'the v1 API, `full` does everything its user may. `expiresAt` (optional, in the future) ends it. ' +
    `A user holds at most ${MAX_API_KEYS_PER_USER} keys.`,
  tag: 'API keys',
  access: 'signedIn',
  body: createApiKeyBody,
  bodySubject: 'API key',
  bodyFieldsInDetails: true,
  responses: {
    201: { description: 'Created', schema: successData(createdApiKey) },
    409: `The user already holds ${MAX_API_KEYS_PER_USER} API keys (the most allowed): delete one first`,
  },
})

/** `GET /api/user/api-keys`: the caller's keys, oldest first (never their values). */
export const listApiKeysEndpoint = endpoint({
  ...at.listApiKeys,
  summary: 'My API keys',
  tag: 'API keys',
  access: 'signedIn',
  responses: { 200: { description: 'Oldest first (never the values)', schema: successList(apiKey) } },
})

/** `DELETE /api/user/api-keys/:id`: delete one of the caller's keys. */
export const deleteApiKeyEndpoint = endpoint({
  ...at.deleteApiKey,
  summary: 'Delete one of my API keys',
  tag: 'API keys',
  access: 'signedIn',
  params: z.object({ id: doc(z.string(), 'The API key id') }),
  responses: {
    200: { description: 'Deleted', schema: successResponse },
    404: 'No key of mine with that id',
  },
})

/** `GET /api/user/sessions`: the user's active sessions, newest first, the current one marked. */
export const listOwnSessionsEndpoint = endpoint({
  ...at.listOwnSessions,
  summary: 'My active sessions',
  description: 'Newest first; the one making the request is `current`. Tokens are never shown.',
  tag: 'API keys',
  access: 'session',
  responses: { 200: { description: 'My sessions', schema: successList(ownSession) } },
})

/** `DELETE /api/user/sessions/:id`: revoke one of the user's sessions (the current one signs out). */
export const revokeOwnSessionEndpoint = endpoint({
  ...at.revokeOwnSession,
  summary: 'Revoke one of my sessions',
  description: 'Signs that browser out at once; revoking the current session signs this one out.',
  tag: 'API keys',
  access: 'session',
  params: z.object({ id: doc(z.string(), 'The session id (from `GET /api/user/sessions`)') }),
  responses: {
    200: { description: 'Deleted', schema: successResponse },
    404: 'No active session of mine with that id',
  },
})

/** `PUT /api/user/password`: change the password, signing out every other session. */
export const changePasswordEndpoint = endpoint({
  ...at.changePassword,
  summary: 'Change my password',
  description:
    'Needs the current password; signs out every other session of mine and answers a new session ' +
    'cookie for this one. Wrong current passwords count in the authentication throttle.',
  tag: 'API keys',
  access: 'session',
  body: changePasswordBody,
  bodySubject: 'password change',
  bodyFieldsInDetails: true,
  responses: {
    200: { description: 'Changed', schema: successResponse },
    429: 'Too many wrong current passwords; see `Retry-After`',
  },
})

/** Every endpoint of the user's own account (the route/contract coverage test reads these). */
export const accountEndpoints = [
  createApiKeyEndpoint,
  listApiKeysEndpoint,
  deleteApiKeyEndpoint,
  listOwnSessionsEndpoint,
  revokeOwnSessionEndpoint,
  changePasswordEndpoint,
] as const

declare module './addresses.js' {
  interface EndpointContracts {
    createApiKey: typeof createApiKeyEndpoint
    listApiKeys: typeof listApiKeysEndpoint
    deleteApiKey: typeof deleteApiKeyEndpoint
    listOwnSessions: typeof listOwnSessionsEndpoint
    revokeOwnSession: typeof revokeOwnSessionEndpoint
    changePassword: typeof changePasswordEndpoint
  }
}
