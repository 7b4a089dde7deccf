/**
 * Series of the ingest path, read at each scrape from the sources `GET /api/admin/ingest-stats`
 * reports: the ingest counters (`ingest/ingest-stats.ts`) and the write buffer (`ingest/write-buffer.ts`,
 * journaled by default):
 * `pathlight_ingest_events_accepted_total`, `pathlight_ingest_events_dropped_total{reason}`,
 * `pathlight_ingest_pending_rows` and `pathlight_ingest_oldest_pending_age_seconds`.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { IngestStats } from '../ingest/ingest-stats.js'
import type { WriteBuffer } from '../ingest/write-buffer.js'

export interface IngestMetricSources {
  /** The ingest counters since start (`ingest.stats.snapshot`). */
  stats: () => IngestStats
  buffer: Pick<WriteBuffer, 'stats' | 'oldestPendingAgeMs'>
}

/** Register the ingest series on `registry`; their values are read from `sources` when scraped. */
export function registerIngestMetrics(registry: Registry, sources: IngestMetricSources): void {
  new Counter({
    name: 'pathlight_ingest_events_accepted_total',
    help: 'Events accepted (committed to the journal or events store) since the process started.',
    registers: [registry],
    collect() {
      this.reset()
      this.inc(sources.stats().accepted)
    },
  })
  new Counter({
    name: 'pathlight_ingest_events_dropped_total',
    help: 'Tracking requests not recorded since the process started, by reason (e.g. bot:crawler, domain_mismatch).',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const [reason, count] of Object.entries(sources.stats().dropped)) this.inc({ reason }, count)
    },
  })
  new Gauge({
    name: 'pathlight_ingest_pending_rows',
    help: 'Event rows accepted but not yet committed to the events store (the write buffer and journal backlog).',
    registers: [registry],
    collect() {
      this.set(sources.buffer.stats().pendingRows)
    },
  })
  new Gauge({
    name: 'pathlight_ingest_oldest_pending_age_seconds',
    help: 'How long the oldest event row not yet committed to the events store has waited; 0 when none.',
    registers: [registry],
    collect() {
      this.set(sources.buffer.oldestPendingAgeMs() / 1000)
    },
  })
}
