/** `handoff-cost.ts`'s design (a) worker: enriches each batch posted to it and posts the results back. */
import { parentPort } from 'node:worker_threads'
import { enrichOne, openEnrichment, type RawRequest } from './handoff-enrich.js'

const geo = await openEnrichment()
parentPort?.on('message', (batch: RawRequest[]) => {
  parentPort?.postMessage(batch.map((request) => enrichOne(geo, request)))
})
parentPort?.postMessage('ready')
