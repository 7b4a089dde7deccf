/**
 * A QR code as one SVG path: each dark module of the `qrcode` package's matrix a 1 x 1 square, offset
 * by the quiet zone of light modules the QR specification asks for around the symbol.
 */
import { create } from 'qrcode'

/** Light modules around the symbol, so that scanners find its edges. */
export const QUIET_ZONE = 4

/**
 * @param text what the code encodes (error correction level M)
 * @returns the path (`M<x> <y>h1v1h-1z` per dark module, in module units) and the side of the square
 *   it is drawn in, quiet zone included, in modules
 * @throws when `text` is too long for a QR code (thousands of characters)
 */
export function qrPath(text: string): { path: string; side: number } {
  const modules = create(text, { errorCorrectionLevel: 'M' }).modules
  const squares: string[] = []
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) squares.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`)
    }
  }
  return { path: squares.join(''), side: modules.size + 2 * QUIET_ZONE }
}
