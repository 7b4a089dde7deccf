/**
 * `useResource(key, load)`: data loaded from the API for the current view. Loads again when `key`
 * changes (dropping the old data) or on `reload()` (keeping it on screen meanwhile); answers to
 * superseded loads, and loads that finish after unmounting, are ignored.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { type ApiError, asApiError } from '../api/api-error'

export interface Resource<T> {
  data: T | undefined
  error: ApiError | undefined
  loading: boolean
  reload(): void
  /** Replace the data locally (after a change the server confirmed). */
  setData(update: (current: T | undefined) => T): void
}

interface State<T> {
  key: string
  data?: T
  error?: ApiError
  loading: boolean
}

/** Load `load()` for `key`; `key` names what is loaded (e.g. `site:3`), so a new key reloads. */
export function useResource<T>(key: string, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<State<T>>({ key, loading: true })
  const loadRef = useRef(load)
  loadRef.current = load
  /** Incremented by every load and on unmount: only the latest load may set the state. */
  const latest = useRef(0)

  const fetchFor = useCallback((forKey: string) => {
    const mine = ++latest.current
    setState((s) => (s.key === forKey ? { ...s, loading: true } : { key: forKey, loading: true }))
    loadRef.current().then(
      (data) => {
        if (latest.current === mine) setState({ key: forKey, data, loading: false })
      },
      (error: unknown) => {
        if (latest.current !== mine) return
        setState((s) => ({
          key: forKey,
          data: s.key === forKey ? s.data : undefined,
          error: asApiError(error),
          loading: false,
        }))
      },
    )
  }, [])

  useEffect(() => {
    fetchFor(key)
    return () => {
      latest.current++
    }
  }, [key, fetchFor])

  const reload = useCallback(() => fetchFor(key), [key, fetchFor])
  const setData = useCallback(
    (update: (current: T | undefined) => T) =>
      setState((s) => ({ ...s, data: update(s.data), error: undefined })),
    [],
  )
  const fresh = state.key === key
  return {
    data: fresh ? state.data : undefined,
    error: fresh ? state.error : undefined,
    loading: fresh ? state.loading : true,
    reload,
    setData,
  }
}
