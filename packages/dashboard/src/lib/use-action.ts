/**
 * `useAction()`: run a user-triggered API call, tracking whether it is busy and keeping its error
 * (an `ApiError`, field errors included) for the form to show. `run` resolves to true on success.
 */
import { useCallback, useState } from 'react'
import { type ApiError, asApiError } from '../api/api-error'

export interface Action {
  busy: boolean
  error: ApiError | undefined
  run(action: () => Promise<unknown>): Promise<boolean>
  clear(): void
}

/** A fresh action state: not busy, no error. */
export function useAction(): Action {
  const [state, setState] = useState<{ busy: boolean; error?: ApiError }>({ busy: false })
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setState({ busy: true })
    try {
      await action()
      setState({ busy: false })
      return true
    } catch (error) {
      setState({ busy: false, error: asApiError(error) })
      return false
    }
  }, [])
  const clear = useCallback(() => setState({ busy: false }), [])
  return { busy: state.busy, error: state.error, run, clear }
}
