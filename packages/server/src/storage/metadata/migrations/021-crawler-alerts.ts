/**
 * 021: alert rules on crawler requests (`query/crawler-alert-metric.ts`). `alert_rule` gains the
 * crawler filters (`crawler_category`: a category or `ai`; `crawler_agent`: an agent's name) and
 * `known_agents`, the JSON array of agents a `crawler_new_agents` rule has seen on its site (null
 * until its first evaluation, which takes the site's agents as known without firing).
 */
import type { Kysely } from 'kysely'
import type { MetadataMigration } from './index.js'

/** Adds `alert_rule.crawler_category`, `crawler_agent` and `known_agents` (all nullable text). */
export const crawlerAlerts: MetadataMigration = {
  name: '021-crawler-alerts',
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    for (const column of ['crawler_category', 'crawler_agent', 'known_agents'])
      await db.schema.alterTable('alert_rule').addColumn(column, 'text').execute()
  },
}
