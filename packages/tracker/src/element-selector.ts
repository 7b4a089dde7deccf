/**
 * A stable selector path of an element, the same at every screen width and across reloads:
 * - an element with an id that does not look generated anchors the path (`#signup`), and the walk stops;
 * - else an element with a test or heatmap data attribute (`data-pathlight-heatmap`, `data-testid`,
 *   `data-test`, `data-cy`) is named by it (`button[data-testid="buy"]`), unique among its siblings;
 * - else `tag:nth-of-type(n)` among its siblings;
 * joined with ` > ` from the anchor (or `html`) down. Class names are left out: they change with state
 * (`active`, `open`) and CSS-in-JS generates them, so they would split one element into many.
 * At most {@link MAX_SELECTOR_LENGTH} characters: a longer path keeps its tail (the element's end).
 */

/** The most characters of a selector path (the server refuses longer). */
export const MAX_SELECTOR_LENGTH = 1024

const DATA_ATTRIBUTES = ['data-pathlight-heatmap', 'data-testid', 'data-test', 'data-cy']

/** An id made by a framework or a counter (`:r1:`, `ember123`, `a1b2c3d4`) is not stable. */
const looksGenerated = (value: string) =>
  /\d{3,}|^:|[0-9a-f]{8,}|^[a-z]{0,3}\d+$/i.test(value) || value.length > 64

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`

/** The selector path of `element` (see the module's comment). */
export function selectorOf(element: Element): string {
  const parts: string[] = []
  let node: Element | null = element
  while (node && node !== document.documentElement) {
    const id = node.id
    if (id && !looksGenerated(id) && /^[A-Za-z][\w-]*$/.test(id)) {
      parts.unshift(`#${id}`)
      break
    }
    const tag = node.tagName.toLowerCase()
    const parent: Element | null = node.parentElement
    let part = ''
    for (const name of DATA_ATTRIBUTES) {
      const value = node.getAttribute(name)
      if (
        value &&
        value.length <= 100 &&
        parent &&
        parent.querySelectorAll(`:scope > ${tag}[${name}=${quoted(value)}]`).length === 1
      ) {
        part = `${tag}[${name}=${quoted(value)}]`
        break
      }
    }
    if (!part) {
      let index = 1
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.tagName === node.tagName) index++
      }
      part = `${tag}:nth-of-type(${index})`
    }
    parts.unshift(part)
    node = parent
  }
  if (node === document.documentElement) parts.unshift('html')
  let path = parts.join(' > ')
  while (path.length > MAX_SELECTOR_LENGTH && parts.length > 1) {
    parts.shift()
    path = parts.join(' > ')
  }
  return path.slice(-MAX_SELECTOR_LENGTH)
}
