/**
 * `useReport(key, load)`: a report loaded from the API. Unlike `useResource`, the previous figures
 * stay on screen while a new key loads (a filter or range change), marked `stale`, so the page does
 * not flash empty; answers to superseded loads are ignored.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { type ApiError, asApiError } from '../api/api-error'

export interface Report<T> {
  data: T | undefined
  error: ApiError | undefined
  /** A load is under way (the data, if any, is for an earlier key). */
  loading: boolean
  reload(): void
}

/** Load `load()` for `key`, again whenever `key` changes. */
export function useReport<T>(key: string, load: () => Promise<T>): Report<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true })
  const loadRef = useRef(load)
  loadRef.current = load
  const latest = useRef(0)

  const fetchNow = useCallback(() => {
    const mine = ++latest.current
    setState((s) => ({ ...s, loading: true }))
    loadRef.current().then(
      (data) => {
        if (latest.current === mine) setState({ data, loading: false })
      },
      (error: unknown) => {
        if (latest.current === mine) setState({ error: asApiError(error), loading: false })
      },
    )
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: key names what is loaded
  useEffect(() => {
    fetchNow()
    return () => {
      latest.current++
    }
  }, [key, fetchNow])

  return { data: state.data, error: state.error, loading: state.loading, reload: fetchNow }
}
