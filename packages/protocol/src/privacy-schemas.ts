/**
 * The shapes of the data-subject routes (`/api/sites/{siteId}/users/{userId}` and
 * `/api/sites/{siteId}/visitors/{visitorId}`): what an erasure answers. Their exports are NDJSON
 * lines of the site export's form (`ExportedEvent` of the server's `transfer/exported-event.ts`).
 */
import { z } from 'zod'
import { component } from './openapi-registry.js'
import { count } from './schema-fields.js'

export const erasureResult = component(
  'ErasureResult',
  z.object({
    success: z.literal(true),
    deleted: count(
      "Events removed: the visitor's own and every other event of their sessions (0 when none was stored)",
    ),
    sessions: count('Sessions removed (the distinct session ids of those events)'),
    replayBatches: count('Session replay batches removed (of those sessions)'),
    webhookDeliveries: count(
      'Webhook deliveries removed (sent or pending) whose body named the visitor or one of those sessions',
    ),
  }),
  "What erasing one visitor's data removed. Erasing again answers 0 everywhere.",
)
