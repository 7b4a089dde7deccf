/**
 * Counters of the ingest path since start: events accepted (committed), and requests not recorded,
 * by reason ('bot:crawler', 'domain_mismatch', 'excluded_ip', ...). Exposed at /api/admin/ingest-stats.
 */
export interface IngestStats {
  accepted: number
  dropped: Record<string, number>
}

export function createIngestStats() {
  const stats: IngestStats = { accepted: 0, dropped: {} }
  return {
    accepted(count = 1) {
      stats.accepted += count
    },
    dropped(reason: string) {
      stats.dropped[reason] = (stats.dropped[reason] ?? 0) + 1
    },
    snapshot: (): IngestStats => ({ accepted: stats.accepted, dropped: { ...stats.dropped } }),
  }
}

export type IngestStatsCounter = ReturnType<typeof createIngestStats>
