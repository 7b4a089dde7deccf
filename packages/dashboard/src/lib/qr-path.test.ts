import { create } from 'qrcode'
import { describe, expect, it } from 'vitest'
import { QUIET_ZONE, qrPath } from './qr-path'

const URI =
  'otpauth://totp/Pathlight:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Pathlight'

describe('qrPath', () => {
  it('draws every dark module once, inside the quiet zone', () => {
    const modules = create(URI, { errorCorrectionLevel: 'M' }).modules
    const { path, side } = qrPath(URI)
    expect(side).toBe(modules.size + 2 * QUIET_ZONE)
    const squares = path.match(/M\d+ \d+h1v1h-1z/g) ?? []
    expect(squares.join('')).toBe(path)
    expect(squares).toHaveLength(modules.data.reduce((dark, bit) => dark + (bit ? 1 : 0), 0))
    // The finder pattern's corner modules: top left, top right, bottom left.
    const last = QUIET_ZONE + modules.size - 1
    for (const [x, y] of [
      [QUIET_ZONE, QUIET_ZONE],
      [last, QUIET_ZONE],
      [QUIET_ZONE, last],
    ]) {
      expect(squares).toContain(`M${x} ${y}h1v1h-1z`)
    }
    for (const square of squares) {
      const [x = -1, y = -1] = (square.match(/\d+/g) ?? []).map(Number)
      expect(Math.min(x, y)).toBeGreaterThanOrEqual(QUIET_ZONE)
      expect(Math.max(x, y)).toBeLessThanOrEqual(last)
    }
  })

  it('encodes different text differently', () => {
    expect(qrPath(URI).path).not.toBe(qrPath(URI.replace('JBSW', 'KBSW')).path)
  })
})
