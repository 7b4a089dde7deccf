/**
 * The one nesting rule for every JSON value Pathlight takes in (request bodies, import lines, replay
 * batches, `properties` strings): at most `MAX_JSON_DEPTH` levels of objects and arrays. JSON.parse
 * copes with any depth, but JSON.stringify, structured clones and recursive readers exhaust the stack
 * somewhere past a few thousand levels, so a deeper value is refused where it is parsed (400 naming
 * the field) instead of failing later, when it is stored or read back.
 */

/**
 * Levels of nested objects and arrays a JSON value may have: `{}` is 1 level, `{"a":[1]}` 2. High
 * enough for a session replay's page snapshot (rrweb nests about two levels per DOM element, and
 * real pages stay well under 200 elements deep), far below what breaks a recursive serializer.
 */
export const MAX_JSON_DEPTH = 512

/** Where a value nests too deeply: the path (keys and array indexes) of the first container too deep. */
export type JsonPath = (string | number)[]

interface Pending {
  value: object
  depth: number
  parent: Pending | undefined
  key: string | number | undefined
}

/**
 * The path of the first object or array of `value` that lies deeper than `maxDepth` levels, or
 * `undefined` when none does. Walks with its own stack (never recursion), so any depth is safe to check;
 * stops at the first container too deep. The root container, when too deep itself, has the path `[]`.
 * @param value a parsed JSON value (objects, arrays, primitives)
 * @param maxDepth levels allowed, default `MAX_JSON_DEPTH`
 */
export function tooDeepAt(value: unknown, maxDepth: number = MAX_JSON_DEPTH): JsonPath | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const stack: Pending[] = [{ value, depth: 1, parent: undefined, key: undefined }]
  while (stack.length > 0) {
    const entry = stack.pop() as Pending
    if (entry.depth > maxDepth) return pathOf(entry)
    const children: [string | number, unknown][] = Array.isArray(entry.value)
      ? entry.value.map((child, index) => [index, child])
      : Object.entries(entry.value)
    // Pushed last to first, so the walk meets the first child first (the path a reader expects).
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as [string | number, unknown]
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: entry.depth + 1, parent: entry, key })
      }
    }
  }
  return undefined
}

function pathOf(entry: Pending): JsonPath {
  const path: JsonPath = []
  for (let at: Pending | undefined = entry; at?.key !== undefined; at = at.parent) path.unshift(at.key)
  return path
}

/** The problem as a field error says it: `nested more than 512 levels deep`. */
export const tooDeepMessage = (maxDepth: number = MAX_JSON_DEPTH) =>
  `nested more than ${maxDepth} levels deep`
