/** A stack trace made readable: the message, then a row per frame with its function and file:line:column. */
import { parseStack } from '../../lib/stack-frames'

/** Nothing for an empty stack. */
export function StackTrace({ stack }: { stack: string }) {
  const lines = parseStack(stack)
  if (lines.length === 0) return <p className="muted">No stack trace was sent.</p>
  return (
    <ol className="stack-trace" aria-label="Stack trace">
      {lines.map((line, i) =>
        line.kind === 'text' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed trace
          <li key={i} className="stack-text">
            {line.text}
          </li>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed trace
          <li key={i} className="stack-frame">
            <span className="stack-fn">{line.fn}</span>{' '}
            <span className="stack-file">
              {line.file}
              {line.line !== null && <span className="stack-pos">:{line.line}</span>}
              {line.column !== null && <span className="stack-pos">:{line.column}</span>}
            </span>
          </li>
        ),
      )}
    </ol>
  )
}
