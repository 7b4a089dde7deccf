/**
 * A QR code drawn as one SVG path (`lib/qr-path.ts`): no canvas and no image URL, so it needs nothing
 * from the Content-Security-Policy, and it stays sharp at any size.
 */
import { useMemo } from 'react'
import { qrPath } from '../lib/qr-path'

/**
 * `text` as a QR code, `size` CSS pixels square, announced as `label`.
 * @throws when `text` is too long for a QR code (thousands of characters)
 */
export function QrCode({ text, label, size = 192 }: { text: string; label: string; size?: number }) {
  const { path, side } = useMemo(() => qrPath(text), [text])
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${side} ${side}`}
      shapeRendering="crispEdges"
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
