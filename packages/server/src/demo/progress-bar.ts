/**
 * The part of a `NodeJS.WriteStream` a progress bar uses; `process.stdout`/`process.stderr` fit, and
 * so does a plain object in tests.
 */
export interface ProgressStream {
  write(chunk: string): boolean
  /** `true` on a terminal: the bar is redrawn in place. Otherwise milestone lines are printed. */
  isTTY?: boolean
}

/** A progress display; see {@link createProgressBar}. */
export interface ProgressBar {
  /** Reports progress: `done` of `total` units (both ≥ 0; `done` is clamped to `total`). */
  update(done: number, total: number): void
  /** Ends the display: draws the last state and a newline on a TTY; prints nothing more otherwise. */
  finish(): void
}

const WIDTH = 20
const REDRAW_MS = 100
const MILESTONES = [25, 50, 75, 100] as const

/**
 * Creates a progress display `label [#####---------------] 25% 2500/10000`.
 *
 * On a TTY the line is redrawn in place with `\r`, at most every 100 ms (~10 times/s), except that the
 * first update and completion are always drawn. Elsewhere (pipes, CI logs) one line is printed when
 * progress first reaches 25, 50, 75 and 100 % (a jump past several prints only the highest).
 *
 * @param label text before the bar, e.g. `replay`.
 * @param stream where to write; default `process.stderr`.
 * @returns the bar. It throws only if `stream.write` does.
 */
export function createProgressBar(label: string, stream: ProgressStream = process.stderr): ProgressBar {
  const tty = stream.isTTY === true
  let lastDraw = Number.NEGATIVE_INFINITY
  let lastText = ''
  let latest = ''
  let milestone = 0

  const draw = (text: string): void => {
    if (text !== lastText) stream.write(`\r${text.padEnd(lastText.length)}`)
    lastText = text
  }

  const render = (done: number, total: number): string => {
    const shown = Math.max(0, Math.min(done, total))
    const ratio = total > 0 ? shown / total : 1
    const filled = Math.round(ratio * WIDTH)
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`
    return `${label} [${bar}] ${Math.floor(ratio * 100)}% ${shown}/${total}`
  }

  return {
    update(done, total) {
      const text = render(done, total)
      if (tty) {
        latest = text
        const now = Date.now()
        if (lastText !== '' && done < total && now - lastDraw < REDRAW_MS) return
        draw(text)
        lastDraw = now
        return
      }
      const percent = total > 0 ? (Math.min(done, total) / total) * 100 : 100
      const reached = MILESTONES.filter((m) => percent >= m).pop() ?? 0
      if (reached > milestone) {
        milestone = reached
        stream.write(`${text}\n`)
      }
    },
    finish() {
      if (!tty || latest === '') return
      draw(latest)
      stream.write('\n')
      latest = ''
      lastText = ''
    },
  }
}
