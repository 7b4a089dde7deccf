/**
 * `pathlight rederive-channels --site N`: give a site's stored events that an AI assistant sent the
 * AI Assistants channel (`query/rederive-channels.ts`), rebuilding the session rollups of their
 * hours. Reads the configuration as `serve` does (DATA_DIR or CLICKHOUSE_URL); with the embedded store,
 * run it while the service is stopped (chDB's directory is held by the running service).
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../config.js'
import { rederiveAiChannels } from '../query/rederive-channels.js'
import { openEventsStore } from '../storage/events/open-events-store.js'

export const REDERIVE_CHANNELS_USAGE = 'Usage: npx pathlight rederive-channels --site N'

/** Run the command: print how many events changed, or throw with the reason. */
export async function runRederiveChannels(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { values } = parseArgs({ args, options: { site: { type: 'string' } } })
  const siteId = Number(values.site)
  if (!Number.isInteger(siteId) || siteId < 1) throw new Error(REDERIVE_CHANNELS_USAGE)
  const config = loadConfig(env)
  const events = await openEventsStore({ clickhouseUrl: config.clickhouseUrl, dataDir: config.dataDir })
  try {
    const changed = await rederiveAiChannels(events, siteId)
    console.log(`${changed} events of site ${siteId} moved to the AI Assistants channel`)
  } finally {
    await events.close()
  }
}
