import type { Client } from './create-client.js'

/** At most this many distinct errors are sent per page load; repeats of one error are sent once. */
export const ERROR_CAP = 10

const text = (value: unknown, max: number) => (value == null ? '' : String(value).slice(0, max))

/**
 * Send uncaught errors (`error`) and unhandled promise rejections (`unhandledrejection`) as `error`
 * events when the site's `trackErrors` is on: the error's name as `event_name`, and properties message,
 * stack, fileName, lineNumber, columnNumber (a rejection's location is read from its stack). Opaque
 * cross-origin "Script error." events, which carry nothing, are skipped.
 */
export function trackErrors(client: Client): void {
  const seen = new Set<string>()
  const report = (error: unknown, name: string, message: string, file = '', line = 0, column = 0) => {
    const e: { name?: unknown; message?: unknown; stack?: unknown } = Object(error)
    const stack = text(e.stack, 2000)
    const at = file ? null : /(https?:\/\/[^\s)]+):(\d+):(\d+)/.exec(stack)
    const body = {
      message: text(e.message || message, 500),
      stack,
      fileName: text(at ? at[1] : file, 500),
      lineNumber: at ? +(at[2] as string) : line,
      columnNumber: at ? +(at[3] as string) : column,
    }
    const eventName = text(e.name || name, 256)
    const key = eventName + JSON.stringify(body)
    if (seen.has(key) || seen.size >= ERROR_CAP) return
    seen.add(key)
    client.send('error', { event_name: eventName, properties: JSON.stringify(body) }, 'trackErrors')
  }
  addEventListener('error', (event) => {
    if (event.error || event.lineno) {
      report(event.error, 'Error', event.message, event.filename, event.lineno, event.colno)
    }
  })
  addEventListener('unhandledrejection', (event) => {
    report(event.reason, 'UnhandledRejection', text(event.reason, 500))
  })
}
