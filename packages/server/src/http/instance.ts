/**
 * Route: `GET /api/instance`, public: `{success:true, data:{hasOwner}}`, whether the first account (the
 * instance owner, `INSTANCE_OWNER_SETTING`) exists. The dashboard opens a fresh instance on creating
 * that account rather than on signing in. It tells a visitor no more than the sign-up form would.
 */
import { instanceSetupEndpoint } from '@pathlight/protocol'
import type { FastifyInstance } from 'fastify'
import { INSTANCE_OWNER_SETTING } from '../auth/better-auth.js'
import type { MetadataDb } from '../storage/metadata/db.js'
import { getSetting } from '../storage/metadata/instance-settings.js'
import { route } from './route.js'

export interface InstanceOptions {
  db: MetadataDb
}

export async function instanceRoutes(app: FastifyInstance, { db }: InstanceOptions): Promise<void> {
  route(app, instanceSetupEndpoint, async () => ({
    success: true as const,
    data: { hasOwner: (await getSetting(db, INSTANCE_OWNER_SETTING)) !== undefined },
  }))
}
