/**
 * Server-side masking of rrweb events recorded by another recorder than Pathlight's (Rybbit's web SDK):
 * what Pathlight's own recorder never sends is replaced by asterisks of the same length before storing.
 * - input values: `value` attributes of `input`, `textarea` and `select` elements and the text inside a
 *   `textarea` in full snapshots (rrweb type 2), input events (type 3, source 5) and attribute mutations
 *   (type 3, source 0) that set a `value`;
 * - the text inside elements marked `data-pathlight-mask` in full snapshots.
 * Everything else is kept as sent. Works in place; returns the events.
 */

const FULL_SNAPSHOT = 2
const INCREMENTAL_SNAPSHOT = 3
const SOURCE_MUTATION = 0
const SOURCE_INPUT = 5
const ELEMENT_NODE = 2
const TEXT_NODE = 3
const INPUT_TAGS = new Set(['input', 'textarea', 'select'])

const stars = (value: unknown) => (typeof value === 'string' ? '*'.repeat(value.length) : value)

interface SerializedNode {
  type?: number
  tagName?: string
  attributes?: Record<string, unknown>
  textContent?: unknown
  childNodes?: SerializedNode[]
}

function maskNode(node: SerializedNode, masked: boolean): void {
  if (node.type === TEXT_NODE && masked) node.textContent = stars(node.textContent)
  let inner = masked
  if (node.type === ELEMENT_NODE) {
    const tag = node.tagName?.toLowerCase() ?? ''
    const attributes = node.attributes ?? {}
    if (INPUT_TAGS.has(tag) && 'value' in attributes) attributes.value = stars(attributes.value)
    if (tag === 'textarea' || 'data-pathlight-mask' in attributes) inner = true
  }
  for (const child of node.childNodes ?? []) maskNode(child, inner)
}

/** Mask the events of one batch (see the module comment). */
export function maskReplayInputs<E extends Record<string, unknown>>(events: E[]): E[] {
  for (const event of events) {
    const data = event.data as Record<string, unknown> | undefined
    if (!data || typeof data !== 'object') continue
    if (event.type === FULL_SNAPSHOT && data.node && typeof data.node === 'object') {
      maskNode(data.node as SerializedNode, false)
    } else if (event.type === INCREMENTAL_SNAPSHOT && data.source === SOURCE_INPUT) {
      data.text = stars(data.text)
    } else if (event.type === INCREMENTAL_SNAPSHOT && data.source === SOURCE_MUTATION) {
      for (const change of (data.attributes as { attributes?: Record<string, unknown> }[] | undefined) ??
        []) {
        if (change.attributes && 'value' in change.attributes)
          change.attributes.value = stars(change.attributes.value)
      }
      for (const add of (data.adds as { node?: SerializedNode }[] | undefined) ?? []) {
        if (add.node) maskNode(add.node, false)
      }
    }
  }
  return events
}
