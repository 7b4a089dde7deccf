/**
 * A JavaScript stack trace split into its lines, each frame with its function and location, as
 * Chromium (`    at fn (https://x/app.js:12:7)`), Firefox and Safari (`fn@https://x/app.js:12:7`)
 * write them. Lines that are not frames (the message) are kept as text.
 */

export type StackLine =
  | { kind: 'text'; text: string }
  | { kind: 'frame'; fn: string; file: string; line: number | null; column: number | null }

const chromium = /^\s*at (?:(.+?) \()?(.+?)(?::(\d+))?(?::(\d+))?\)?$/
const gecko = /^\s*(.*?)@(.+?)(?::(\d+))?(?::(\d+))?$/

const num = (text: string | undefined) => (text === undefined ? null : Number(text))

/** The lines of `stack`, blank ones dropped. */
export function parseStack(stack: string): StackLine[] {
  return stack
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line): StackLine => {
      const match = chromium.exec(line) ?? gecko.exec(line)
      if (!match?.[2]) return { kind: 'text', text: line.trim() }
      return {
        kind: 'frame',
        fn: match[1]?.trim() || '(anonymous)',
        file: match[2],
        line: num(match[3]),
        column: num(match[4]),
      }
    })
}
