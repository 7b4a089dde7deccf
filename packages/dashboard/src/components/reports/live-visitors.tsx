/** Visitors with an event in the last five minutes, refreshed every 30 seconds while the page is visible. */
import { useEffect, useState } from 'react'
import type { ReportsApi } from '../../api/reports-api'
import { formatCount } from '../../lib/report-format'

export const LIVE_POLL_MS = 30_000

/** "3 visitors in the last 5 minutes" (nothing until the first answer). */
export function LiveVisitors({ reports }: { reports: ReportsApi }) {
  const [visitors, setVisitors] = useState<number>()
  useEffect(() => {
    let stopped = false
    const poll = () => {
      if (document.visibilityState !== 'visible') return
      reports.live().then(
        (live) => {
          if (!stopped) setVisitors(live.visitors)
        },
        () => undefined,
      )
    }
    poll()
    const timer = setInterval(poll, LIVE_POLL_MS)
    document.addEventListener('visibilitychange', poll)
    return () => {
      stopped = true
      clearInterval(timer)
      document.removeEventListener('visibilitychange', poll)
    }
  }, [reports])
  if (visitors === undefined) return null
  return (
    <p className={visitors > 0 ? 'live live-on' : 'live'} data-testid="live-visitors">
      <span className="live-dot" aria-hidden="true" />
      <strong>{formatCount(visitors)}</strong> {visitors === 1 ? 'visitor' : 'visitors'} in the last 5 minutes
    </p>
  )
}
