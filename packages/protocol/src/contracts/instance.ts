/**
 * What a signed-out visitor's first screen needs to know about the instance: whether it has its owner
 * yet. A fresh instance opens on creating the owner's account instead of signing in.
 */
import { z } from 'zod'
import { endpoint } from '../contract.js'
import { doc } from '../openapi-registry.js'
import { successData } from '../response-schemas.js'
import * as at from './addresses.js'

/** The instance's setup state. */
export const instanceSetup = z.object({
  hasOwner: doc(
    z.boolean(),
    'Whether the first account, the instance owner, exists; false on a fresh instance, whose first sign-up becomes its owner',
  ),
})
export type InstanceSetup = z.infer<typeof instanceSetup>

/** `GET /api/instance`: the setup state, for the dashboard's first screen. */
export const instanceSetupEndpoint = endpoint({
  ...at.instanceSetup,
  summary: 'Whether the instance has its owner yet',
  tag: 'Health',
  access: 'public',
  responses: { 200: { description: 'The setup state', schema: successData(instanceSetup) } },
})

/** The instance endpoints (the route/contract coverage test reads these). */
export const instanceEndpoints = [instanceSetupEndpoint] as const

declare module './addresses.js' {
  interface EndpointContracts {
    instanceSetup: typeof instanceSetupEndpoint
  }
}
