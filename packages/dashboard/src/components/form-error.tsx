/** The message of a failed request, announced to screen readers (`role="alert"`). */
import type { ApiError } from '../api/api-error'

/** Nothing without an error; else its message (after `title`) and its form-level messages. */
export function FormError({ error, title }: { error: ApiError | undefined; title?: string }) {
  if (!error) return null
  return (
    <div role="alert" className="notice notice-error">
      {title && <strong>{title}: </strong>}
      {error.message}
      {error.formErrors.length > 0 && (
        <ul>
          {error.formErrors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
