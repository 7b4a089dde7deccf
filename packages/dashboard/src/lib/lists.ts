/**
 * The excluded IP and country lists as users edit them: free text, one entry per line (commas and
 * spaces separate entries too). Validation is the server's: its messages are shown next to the field.
 */

/** Split text into trimmed, non-empty entries, duplicates dropped, order kept. */
export function parseList(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter((entry) => entry !== ''))]
}

/** The text for a list: one entry per line. */
export function formatList(entries: readonly string[]): string {
  return entries.join('\n')
}
