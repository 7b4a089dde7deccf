/**
 * The API reference page: one self-contained HTML document rendered from the OpenAPI document (no
 * script at all, no external resource; inline CSS). Tags with their routes, each route with an anchor
 * (its operationId), who may call it, how to authenticate, its parameters, request body and answers;
 * schemas pretty-printed, with component references linked to the schemas section. Every text from
 * the document is HTML-escaped; descriptions get a tiny Markdown subset (paragraphs, `code`, **bold**,
 * http(s) links) applied after escaping.
 */
import type { OpenApiDocument, Operation, Parameter } from './build-document.js'
import type { JsonSchema } from './to-json-schema.js'

/** `&`, `<`, `>`, `"` and `'` as entities. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const COMPONENT = '#/components/schemas/'

const schemeNames: Record<string, string> = {
  apiKey: 'API key (<code>Authorization: Bearer</code>)',
  session: 'session cookie',
  privateLink: 'private link key (<code>X-Private-Key</code>)',
}

/** Render the page. */
export function renderReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, { path: string; method: string; operation: Operation }[]>()
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = operations[method]
      if (!operation) continue
      for (const tag of operation.tags) {
        const list = byTag.get(tag) ?? []
        list.push({ path, method, operation })
        byTag.set(tag, list)
      }
    }
  }
  const tagged = document.tags.filter((tag) => byTag.has(tag.name))
  const { title, version, description } = document.info

  const contents = tagged
    .map(
      (tag) =>
        `<li><a href="#${tagAnchor(tag.name)}">${escapeHtml(tag.name)}</a><ul>${(byTag.get(tag.name) ?? [])
          .map(
            ({ path, method, operation }) =>
              `<li><a href="#${escapeHtml(operation.operationId)}">${methodBadge(method)} <code>${escapeHtml(
                path,
              )}</code></a> ${inline(operation.summary)}</li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('')

  const sections = tagged
    .map(
      (tag) =>
        `<section id="${tagAnchor(tag.name)}"><h2>${escapeHtml(tag.name)}</h2>${markdown(tag.description)}${(
          byTag.get(tag.name) ?? []
        )
          .map(({ path, method, operation }) => renderOperation(path, method, operation))
          .join('')}</section>`,
    )
    .join('')

  const schemas = Object.entries(document.components.schemas)
    .map(([name, schema]) => {
      const { description: text, ...rest } = schema
      return `<article id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${
        typeof text === 'string' ? markdown(text) : ''
      }${schemaBlock(rest)}</article>`
    })
    .join('')

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} reference</title>
<style>${css}</style></head>
<body>
<header><h1>${escapeHtml(title)} <small>${escapeHtml(version)}</small></h1>
<p>OpenAPI ${escapeHtml(document.openapi)} document: <a href="/api/openapi.json">/api/openapi.json</a></p>
${markdown(description)}</header>
<nav><h2>Contents</h2><ul>${contents}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main>${sections}<section id="schemas"><h2>Schemas</h2>${schemas}</section></main>
</body></html>
`
}

function renderOperation(path: string, method: string, operation: Operation): string {
  const { description = '' } = operation
  const details = description.replace(/^\*\*Who:\*\*[^\n]*(\n\n)?/, '')
  const anchor = escapeHtml(operation.operationId)
  const parts = [
    `<article class="operation" id="${anchor}">`,
    `<h3><a class="anchor" href="#${anchor}">${methodBadge(method)}`,
    ` <code>${escapeHtml(path)}</code></a></h3>`,
    `<p class="summary">${inline(operation.summary)}</p>`,
    `<p><strong>Who:</strong> ${inline(operation['x-who'])}.`,
    ` <strong>Credentials:</strong> ${security(operation)}</p>`,
    details ? markdown(details) : '',
    operation.parameters.length > 0 ? parameters(operation.parameters) : '',
  ]
  if (operation.requestBody) {
    parts.push('<h4>Request body</h4>')
    for (const [type, media] of Object.entries(operation.requestBody.content)) {
      parts.push(`<p class="media">${escapeHtml(type)}</p>${schemaBlock(media.schema)}`)
    }
  }
  parts.push('<h4>Responses</h4><dl class="responses">')
  for (const [status, response] of Object.entries(operation.responses)) {
    parts.push(`<dt class="status s${escapeHtml(status.slice(0, 1))}">${escapeHtml(status)}</dt><dd>`)
    parts.push(markdown(response.description))
    for (const [type, media] of Object.entries(response.content ?? {})) {
      parts.push(`<p class="media">${escapeHtml(type)}</p>`)
      if (media.schema) parts.push(schemaBlock(media.schema))
    }
    parts.push('</dd>')
  }
  parts.push('</dl></article>')
  return parts.join('')
}

function security(operation: Operation): string {
  if (operation.security.length === 0) return 'none'
  return operation.security
    .map((requirement) => {
      const names = Object.keys(requirement)
      return names.length === 0
        ? 'none'
        : names.map((name) => schemeNames[name] ?? escapeHtml(name)).join(' and ')
    })
    .join(', or ')
}

function parameters(list: Parameter[]): string {
  const rows = list
    .map(
      (parameter) =>
        `<tr><td><code>${escapeHtml(parameter.name)}</code></td><td>${escapeHtml(parameter.in)}</td><td>${
          parameter.required ? 'yes' : 'no'
        }</td><td>${typeSummary(parameter.schema)}</td><td>${inline(parameter.description ?? '')}</td></tr>`,
    )
    .join('')
  const head = ['Name', 'In', 'Required', 'Type', 'Description'].map((name) => `<th>${name}</th>`).join('')
  return `<h4>Parameters</h4><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`
}

/** A one-line type: `integer 1..1000`, `string (date)`, `one of: a, b`. */
function typeSummary(schema: JsonSchema): string {
  const enumeration = Array.isArray(schema.enum) ? schema.enum.map(String) : undefined
  if (enumeration)
    return `one of: ${enumeration.map((value) => `<code>${escapeHtml(value)}</code>`).join(', ')}`
  const parts = [escapeHtml(String(schema.type ?? 'any'))]
  if (typeof schema.format === 'string') parts.push(`(${escapeHtml(schema.format)})`)
  if (schema.minimum !== undefined || schema.maximum !== undefined) {
    parts.push(`${escapeHtml(String(schema.minimum ?? ''))}..${escapeHtml(String(schema.maximum ?? ''))}`)
  }
  if (typeof schema.contentMediaType === 'string')
    parts.push(`holding ${escapeHtml(schema.contentMediaType)}`)
  return parts.join(' ')
}

/** A schema: a link for a bare component reference, else pretty-printed JSON with linked references. */
function schemaBlock(schema: JsonSchema): string {
  const keys = Object.keys(schema)
  if (keys.length === 1 && typeof schema.$ref === 'string') return `<p>${refLink(schema.$ref)}</p>`
  return `<pre>${renderJson(schema, '')}</pre>`
}

function refLink(ref: string): string {
  if (!ref.startsWith(COMPONENT)) return escapeHtml(ref)
  const name = ref.slice(COMPONENT.length)
  return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`
}

function renderJson(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    if (value.every((item) => item === null || typeof item !== 'object')) {
      return `[${value.map((item) => escapeHtml(JSON.stringify(item))).join(', ')}]`
    }
    const inner = `${indent}  `
    return `[\n${value.map((item) => inner + renderJson(item, inner)).join(',\n')}\n${indent}]`
  }
  if (value === null || typeof value !== 'object') return escapeHtml(JSON.stringify(value) ?? 'null')
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  const inner = `${indent}  `
  const lines = entries.map(([key, child]) => {
    const rendered =
      key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT)
        ? refLink(child)
        : renderJson(child, inner)
    return `${inner}${escapeHtml(JSON.stringify(key))}: ${rendered}`
  })
  return `{\n${lines.join(',\n')}\n${indent}}`
}

function methodBadge(method: string): string {
  return `<span class="method ${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span>`
}

const tagAnchor = (name: string) => `tag-${escapeHtml(name.replace(/[^A-Za-z0-9]+/g, '-'))}`

/** Paragraphs separated by blank lines, each escaped and given the inline subset. */
function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join('')
}

/** Escape, then `code`, **bold** and bare http(s) links (the escaped text holds no markup to break). */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])(https?:\/\/[^\s<)]+[^\s<).,;])/g, '$1<a href="$2">$2</a>')
}

const css = `
body{font:15px/1.5 system-ui,sans-serif;color:#1d2430;margin:0;display:grid;grid-template-columns:22rem 1fr}
header{grid-column:1/3;padding:1.5rem 2rem;background:#f4f6fa;border-bottom:1px solid #dde2ea}
header p{max-width:60rem}
h1 small{font-size:.5em;color:#667}
nav{padding:1rem 1.5rem;border-right:1px solid #dde2ea;font-size:13px;position:sticky;top:0;align-self:start;
max-height:100vh;overflow:auto}
nav ul{list-style:none;padding-left:.5rem;margin:.2rem 0}
nav a{text-decoration:none;color:inherit}
nav code{overflow-wrap:anywhere}
main{padding:1rem 2rem;min-width:0}
section>h2{border-bottom:2px solid #dde2ea;padding-bottom:.3rem;margin-top:2.5rem}
article{border:1px solid #dde2ea;border-radius:6px;padding:.2rem 1rem 1rem;margin:1rem 0}
article h3 a.anchor{color:inherit;text-decoration:none}
.summary{font-weight:600}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:3px;color:#fff;
font:700 11px/1.8 monospace;padding:0 .3em;background:#667}
.method.get{background:#2f7d4f}.method.post{background:#2b62b5}.method.put{background:#a86b00}
.method.patch{background:#8a5cc2}.method.delete{background:#b53a3a}
code,pre{font-family:ui-monospace,monospace;font-size:13px}
pre{background:#f6f8fa;border:1px solid #e4e8ee;border-radius:4px;padding:.6rem;overflow:auto;
max-height:30rem}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{border:1px solid #e4e8ee;padding:.25rem .5rem;text-align:left;vertical-align:top}
.responses dt{font:700 14px monospace;margin-top:.6rem}
.responses dd{margin-left:1.5rem}
.s2{color:#2f7d4f}.s3{color:#667}.s4,.s5,.sd{color:#b53a3a}
.media{color:#667;font-size:13px;margin:.3rem 0}
`
