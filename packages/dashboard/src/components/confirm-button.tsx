/**
 * A button for an irreversible action that asks first, in place: the first click shows the question
 * with Confirm and Cancel (focus moves to Cancel, the safe choice).
 */
import { useEffect, useRef, useState } from 'react'

export interface ConfirmButtonProps {
  label: string
  question: string
  confirmLabel?: string
  onConfirm: () => Promise<unknown>
  danger?: boolean
  disabled?: boolean
}

/** `label` until clicked, then `question` with Confirm (runs `onConfirm`) and Cancel. */
export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
  danger = true,
  disabled,
}: ConfirmButtonProps) {
  const [armed, setArmed] = useState(false)
  const [busy, setBusy] = useState(false)
  const cancelRef = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (armed) cancelRef.current?.focus()
  }, [armed])

  if (!armed) {
    return (
      <button
        type="button"
        className={
          danger ? 'button button-danger-quiet button-small' : 'button button-secondary button-small'
        }
        disabled={disabled}
        onClick={() => setArmed(true)}
      >
        {label}
      </button>
    )
  }
  return (
    <span className="confirm">
      <span className="confirm-question">{question}</span>
      <button
        type="button"
        className={danger ? 'button button-danger button-small' : 'button button-primary button-small'}
        disabled={busy}
        onClick={async () => {
          setBusy(true)
          try {
            await onConfirm()
          } finally {
            setBusy(false)
            setArmed(false)
          }
        }}
      >
        {confirmLabel}
      </button>
      <button
        ref={cancelRef}
        type="button"
        className="button button-secondary button-small"
        onClick={() => setArmed(false)}
      >
        Cancel
      </button>
    </span>
  )
}
