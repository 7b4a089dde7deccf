/**
 * A recording made safe to rebuild in the dashboard's origin: every place an rrweb event carries CSS
 * (`<style>` text, `style` attributes, stylesheets captured as `_cssText`, inserted rules, style
 * declarations, adopted stylesheets, fonts, and any attribute with a CSS function in it, such as SVG's
 * `fill="url(...)"`) goes through `neutralizeCssUrls`, and the attributes that make a browser fetch
 * (`src`, `srcset`, `poster`, `<link href>`, SVG `href`, a meta refresh, ...) lose their URL unless it
 * is `data:` or a fragment; `srcdoc` documents are dropped. Why: the player's iframe is same-origin with the
 * dashboard, so a URL there would be a request to Pathlight carrying the viewer's cookie (see
 * `replay-css.ts`). The replayed page keeps its layout, text and inline images.
 *
 * rrweb's shapes (`@rrweb/types`): a full snapshot (type 2) holds a serialized node tree; an
 * incremental snapshot (type 3) holds, by `data.source`, mutations (0: added nodes, attribute and text
 * changes), stylesheet rules (8), fonts (10), style declarations (13) and adopted stylesheets (15).
 */
import { isInertUrl, neutralizeCssUrls } from './replay-css'

const FULL_SNAPSHOT = 2
const INCREMENTAL_SNAPSHOT = 3
const ELEMENT_NODE = 2
const TEXT_NODE = 3
const SOURCE = { mutation: 0, styleSheetRule: 8, font: 10, styleDeclaration: 13, adoptedStyleSheet: 15 }

/** Attributes that load their URL on any element. */
const FETCHING_ATTRIBUTES: ReadonlySet<string> = new Set([
  'src',
  'srcset',
  'imagesrcset',
  'poster',
  'background',
  'lowsrc',
  'data',
  'xlink:href',
])
/** Elements whose `href` loads (a stylesheet, an icon, an SVG image or reference). */
const FETCHING_HREF: ReadonlySet<string> = new Set(['link', 'image', 'use', 'feimage', 'script'])

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/**
 * Make the URLs of `events` inert, in place (the events are changed, not copied: a recording may be
 * large, and doing it twice changes nothing more).
 * @param events rrweb events in time order, as the replay endpoint answers them
 * @returns `events`
 */
export function neutralizeReplayUrls<E>(events: readonly E[]): readonly E[] {
  /** Tag names by node id, for attribute changes (which name the node only by id). */
  const tags = new Map<number, string>()
  /** Ids of text nodes inside `<style>`: their text is CSS. */
  const styleTexts = new Set<number>()
  for (const event of events) {
    if (!isObject(event) || !isObject(event.data)) continue
    const data = event.data
    if (event.type === FULL_SNAPSHOT) {
      tags.clear()
      styleTexts.clear()
      visitNode(data.node, undefined, tags, styleTexts)
    } else if (event.type === INCREMENTAL_SNAPSHOT) {
      visitIncremental(data, tags, styleTexts)
    }
  }
  return events
}

function visitIncremental(data: Json, tags: Map<number, string>, styleTexts: Set<number>): void {
  switch (data.source) {
    case SOURCE.mutation:
      for (const add of asArray(data.adds)) {
        if (isObject(add)) visitNode(add.node, tags.get(Number(add.parentId)), tags, styleTexts)
      }
      for (const change of asArray(data.attributes)) {
        if (isObject(change) && isObject(change.attributes)) {
          neutralizeAttributes(change.attributes, tags.get(Number(change.id)) ?? '')
        }
      }
      for (const change of asArray(data.texts)) {
        if (isObject(change) && styleTexts.has(Number(change.id)) && typeof change.value === 'string') {
          change.value = neutralizeCssUrls(change.value)
        }
      }
      break
    case SOURCE.styleSheetRule:
      neutralizeRules(data.adds)
      for (const key of ['replace', 'replaceSync'])
        if (typeof data[key] === 'string') data[key] = neutralizeCssUrls(data[key])
      break
    case SOURCE.styleDeclaration:
      if (isObject(data.set) && typeof data.set.value === 'string') {
        data.set.value = neutralizeCssUrls(data.set.value)
      }
      break
    case SOURCE.adoptedStyleSheet:
      for (const style of asArray(data.styles)) if (isObject(style)) neutralizeRules(style.rules)
      break
    case SOURCE.font:
      // Without `buffer`, the source is a CSS `src` value (`url(...)`) the replayer loads as a FontFace.
      if (data.buffer !== true && typeof data.fontSource === 'string') {
        data.fontSource = neutralizeCssUrls(data.fontSource)
      }
      break
    default:
      break
  }
}

/** `[{rule, index}]` of inserted rules. */
function neutralizeRules(rules: unknown): void {
  for (const rule of asArray(rules)) {
    if (isObject(rule) && typeof rule.rule === 'string') rule.rule = neutralizeCssUrls(rule.rule)
  }
}

/** A serialized node and its subtree (`serializedNodeWithId`). */
function visitNode(
  node: unknown,
  parentTag: string | undefined,
  tags: Map<number, string>,
  styleTexts: Set<number>,
): void {
  if (!isObject(node)) return
  if (node.type === TEXT_NODE) {
    if ((node.isStyle === true || parentTag === 'style') && typeof node.textContent === 'string') {
      styleTexts.add(Number(node.id))
      node.textContent = neutralizeCssUrls(node.textContent)
    }
    return
  }
  let tag = parentTag
  if (node.type === ELEMENT_NODE) {
    tag = String(node.tagName ?? '').toLowerCase()
    tags.set(Number(node.id), tag)
    if (isObject(node.attributes)) neutralizeAttributes(node.attributes, tag)
  }
  for (const child of asArray(node.childNodes)) visitNode(child, tag, tags, styleTexts)
}

/**
 * An element's attributes (a snapshot's, or a mutation's changes, where `style` may be an object of
 * properties: `{color: 'red', background: ['url(x)', 'important'], width: false}`).
 */
function neutralizeAttributes(attributes: Json, tag: string): void {
  for (const [name, value] of Object.entries(attributes)) {
    const lower = name.toLowerCase()
    if (lower === 'style' || lower === '_csstext') {
      if (typeof value === 'string') attributes[name] = neutralizeCssUrls(value)
      else if (isObject(value)) neutralizeStyleObject(value)
    } else if (typeof value !== 'string') {
      // true, null (a removed attribute) and numbers name nothing.
    } else if (lower === 'srcdoc') {
      attributes[name] = '' // a document of its own, loading whatever it names
    } else if (fetches(lower, tag, attributes)) {
      if (!isInertUrl(value)) attributes[name] = ''
    } else if (value.includes('(')) {
      // SVG presentation attributes are CSS values: fill="url(...)", mask, filter, clip-path, markers.
      attributes[name] = neutralizeCssUrls(value)
    }
  }
}

function neutralizeStyleObject(style: Json): void {
  for (const [property, value] of Object.entries(style)) {
    if (typeof value === 'string') style[property] = neutralizeCssUrls(value)
    else if (Array.isArray(value) && typeof value[0] === 'string') value[0] = neutralizeCssUrls(value[0])
  }
}

/** Whether attribute `name` of a `tag` element loads what it names. */
function fetches(name: string, tag: string, attributes: Json): boolean {
  if (FETCHING_ATTRIBUTES.has(name)) return true
  if (name === 'href') return FETCHING_HREF.has(tag)
  // <meta http-equiv="refresh" content="0;url=..."> navigates the frame.
  return name === 'content' && tag === 'meta' && /refresh/i.test(String(attributes['http-equiv'] ?? ''))
}
