/**
 * Whether a site has received events, polled from `GET /api/sites/{id}/has-events`: every 2 s until
 * the first event arrives, then every 30 s (to keep "last event" current). Polls only while the page
 * is visible; a failed poll keeps the last answer and tries again on the next tick.
 */
import type { SiteEventStatus } from '@pathlight/protocol'
import { useEffect, useState } from 'react'
import { api } from '../api/api'

export const WAITING_POLL_MS = 2000
export const RECEIVING_POLL_MS = 30_000

/** The latest answer for `siteId` (undefined until the first), and whether the last poll failed. */
export function useSiteStatus(siteId: number): { status: SiteEventStatus | undefined; failed: boolean } {
  const [state, setState] = useState<{ siteId: number; status?: SiteEventStatus; failed: boolean }>({
    siteId,
    failed: false,
  })
  useEffect(() => {
    let stopped = false
    let running = false
    let receiving = false
    let timer: ReturnType<typeof setTimeout> | undefined
    /** One check, then the next one scheduled; never two at once (a tab shown mid-check waits for it). */
    const poll = async () => {
      if (running || stopped) return
      running = true
      clearTimeout(timer)
      if (document.visibilityState === 'visible') {
        try {
          const status = await api.siteStatus(siteId)
          receiving = status.hasEvents
          if (!stopped) setState({ siteId, status, failed: false })
        } catch {
          if (!stopped) setState((s) => ({ ...s, failed: true }))
        }
      }
      running = false
      if (!stopped) timer = setTimeout(poll, receiving ? RECEIVING_POLL_MS : WAITING_POLL_MS)
    }
    void poll()
    const onVisible = () => {
      if (document.visibilityState === 'visible') void poll()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      stopped = true
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [siteId])
  return state.siteId === siteId
    ? { status: state.status, failed: state.failed }
    : { status: undefined, failed: false }
}
