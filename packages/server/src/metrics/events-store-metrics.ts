/**
 * Series of the events store's latency: `pathlight_events_insert_duration_seconds` (every insert,
 * from the write buffer or journal) and `pathlight_report_query_duration_seconds{report}` (every
 * report query, labelled by `runReport`). Fed by `storage/events/timed-events-store.ts`.
 */
import { Histogram, type Registry } from 'prom-client'
import type { EventsStoreTimings } from '../storage/events/timed-events-store.js'

/** Inserts take milliseconds on chDB and grow with the batch; up to 10 s covers a stalled store. */
const INSERT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Reports run from a millisecond to seconds on large sites. */
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/**
 * Register the events store's histograms on `registry`.
 * @returns the observers to pass to `timeEventsStore` (durations in seconds)
 */
export function eventsStoreTimings(registry: Registry): EventsStoreTimings {
  const inserts = new Histogram({
    name: 'pathlight_events_insert_duration_seconds',
    help: 'Duration of inserts into the events store (one per batch of rows), failed ones included.',
    buckets: INSERT_BUCKETS,
    registers: [registry],
  })
  const queries = new Histogram({
    name: 'pathlight_report_query_duration_seconds',
    help: 'Duration of report queries on the events store, by report, failed ones included.',
    labelNames: ['report'] as const,
    buckets: QUERY_BUCKETS,
    registers: [registry],
  })
  return {
    insert: (seconds) => inserts.observe(seconds),
    query: (report, seconds) => queries.observe({ report }, seconds),
  }
}
