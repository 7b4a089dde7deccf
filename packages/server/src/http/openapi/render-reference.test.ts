import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildOpenApiDocument } from './build-document.js'
import { docRoutes } from './doc-routes.fixture.js'
import { escapeHtml, renderReferencePage } from './render-reference.js'
import { json } from './route-doc.js'

describe('renderReferencePage', () => {
  const evil = '<script>alert("x")</script>'
  const document = buildOpenApiDocument(
    docRoutes({
      'GET /api/sites/:siteId/evil': {
        summary: `Evil ${evil}`,
        description: `Uses \`code\` and **bold**; see https://example.com/a?b=1&c=2. ${evil}`,
        tag: 'Sites',
        access: 'member',
        query: z.object({ q: z.string().describe('x') }),
        responses: { 200: json('Fine', z.object({ [evil]: z.string() })) },
      },
    }),
  )
  const html = renderReferencePage(document)

  it('escapes every text from the document', () => {
    expect(html).not.toContain('<script')
    expect(html).toContain('Evil &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
  })

  it('renders the small Markdown subset after escaping', () => {
    expect(html).toContain('<code>code</code>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain(
      '<a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a>.',
    )
  })

  it('gives each route an anchor and links component references', () => {
    expect(html).toContain('id="getSitesSiteIdEvil"')
    expect(html).toContain('href="#getSitesSiteIdEvil"')
    expect(html).toContain('<a href="#schema-ErrorResponse">ErrorResponse</a>')
    expect(html).toContain('id="schema-ErrorResponse"')
    expect(html).toContain('<code>q</code>')
  })
})

describe('escapeHtml', () => {
  it('escapes the five characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    )
  })
})
