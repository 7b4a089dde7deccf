/** Visitors with an event in the last five minutes, refreshed every 30 seconds while the page is visible. */
import type { LiveVisitors as Live } from '@pathlight/protocol'
import { useEffect, useRef, useState } from 'react'
import type { ReportsApi } from '../../api/reports-api'
import { formatCount } from '../../lib/report-format'

export const LIVE_POLL_MS = 30_000

/**
 * "3 visitors in the last 5 minutes" (nothing until the first answer). `first`, when given, answers the
 * first poll (the page's batch); later polls ask the server.
 */
export function LiveVisitors({ reports, first }: { reports: ReportsApi; first?: () => Promise<Live> }) {
  const [visitors, setVisitors] = useState<number>()
  const firstRef = useRef(first)
  useEffect(() => {
    let stopped = false
    const poll = () => {
      if (document.visibilityState !== 'visible') return
      const load = firstRef.current ?? reports.live
      firstRef.current = undefined
      load().then(
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
