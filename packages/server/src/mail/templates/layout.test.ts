/** The mail layout: every value escaped in the HTML part, the text part carrying the same content. */
import { describe, expect, it } from 'vitest'
import { renderMail } from './layout.js'

describe('renderMail', () => {
  const { html, text } = renderMail({
    title: 'Join <Acme & Co>',
    paragraphs: ['Ada "the admin" invited you.', "It's <script>alert(1)</script>"],
    action: { label: 'Accept', url: 'https://stats.example/invitations/abc?x=1&y="2"' },
    footer: 'Ignore this if <unexpected>.',
  })

  it('escapes every value in the HTML part', () => {
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<Acme')
    expect(html).toContain('Join &lt;Acme &amp; Co&gt;')
    expect(html).toContain('Ada &quot;the admin&quot; invited you.')
    expect(html).toContain('href="https://stats.example/invitations/abc?x=1&amp;y=&quot;2&quot;"')
    expect(html).toContain('Ignore this if &lt;unexpected&gt;.')
  })

  it('gives the same content as plain text, the link written out', () => {
    expect(text).toBe(
      [
        'Join <Acme & Co>',
        '',
        'Ada "the admin" invited you.',
        '',
        "It's <script>alert(1)</script>",
        '',
        'Accept: https://stats.example/invitations/abc?x=1&y="2"',
        '',
        '--',
        'Ignore this if <unexpected>.',
        '',
      ].join('\n'),
    )
  })

  it('leaves out the button and the footer when not given', () => {
    const plain = renderMail({ title: 'T', paragraphs: ['P'] })
    expect(plain.html).not.toContain('<a ')
    expect(plain.html).not.toContain('<hr')
    expect(plain.text).toBe('T\n\nP\n')
  })
})
