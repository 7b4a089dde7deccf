/** A secret shown once (an API key, a webhook signing secret), with a copy button. */
import { CopyButton } from './copy-button'

/** A region named `title` with the secret, a copy button, and `onDone` to dismiss it for good. */
export function SecretNotice({ title, value, onDone }: { title: string; value: string; onDone: () => void }) {
  return (
    <section className="notice notice-secret" aria-label={title}>
      <p>
        <strong>{title}.</strong> Copy it now: it will not be shown again.
      </p>
      <div className="secret-row">
        <code className="secret-value">{value}</code>
        <CopyButton text={value} />
      </div>
      <button type="button" className="button button-secondary button-small" onClick={onDone}>
        I have copied it
      </button>
    </section>
  )
}
