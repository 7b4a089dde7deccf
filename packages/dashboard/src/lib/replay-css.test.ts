import { describe, expect, it } from 'vitest'
import { isInertUrl, neutralizeCssUrls } from './replay-css'

describe('neutralizeCssUrls', () => {
  it('empties url() in every spelling, escaped names included', () => {
    expect(neutralizeCssUrls('a{background:url(/api/x)}')).toBe('a{background:url()}')
    expect(neutralizeCssUrls('a{background:URL( "/api/x" ) red}')).toBe('a{background:URL( "" ) red}')
    expect(neutralizeCssUrls("a{background:url('https://pathlight.example/api/x')}")).toBe(
      'a{background:url("")}',
    )
    expect(neutralizeCssUrls('a{background:\\75 rl(/api/x)}')).toBe('a{background:url()}')
    expect(neutralizeCssUrls('a{background:u\\rl(//evil.example/x)}')).toBe('a{background:url()}')
  })

  it('empties @import, image-set(), src() and cross-fade() strings', () => {
    expect(neutralizeCssUrls('@import "/api/x.css"; a{color:red}')).toBe('@import ""; a{color:red}')
    expect(neutralizeCssUrls('@\\69mport url(/api/x.css) screen;')).toBe('@\\69mport url() screen;')
    expect(neutralizeCssUrls('a{background-image:image-set("/api/a.png" 1x, url(/api/b.png) 2x)}')).toBe(
      'a{background-image:image-set("" 1x, url() 2x)}',
    )
    expect(neutralizeCssUrls('a{background:-webkit-image-set("/api/a.png" 1x)}')).toBe(
      'a{background:-webkit-image-set("" 1x)}',
    )
    expect(neutralizeCssUrls('@font-face{font-family:f;src:src("/api/f.woff")}')).toBe(
      '@font-face{font-family:f;src:src("")}',
    )
  })

  it('keeps data: URLs, fragments, other strings and text without URLs as written', () => {
    const kept = [
      'a{background:url(data:image/png;base64,AAAA)}',
      'a{background:url("  DATA:image/svg+xml,<svg/>")}',
      'rect{clip-path:url(#clip)}',
      'a::before{content:"url(/api/x)"}',
      '@media (min-width: 10px) { a { color: rgb(1, 2, 3) } }',
      'a{color:red}',
    ]
    for (const css of kept) expect(neutralizeCssUrls(css)).toBe(css)
  })

  it('tells inert URLs', () => {
    expect(isInertUrl('data:,x')).toBe(true)
    expect(isInertUrl(' #a')).toBe(true)
    expect(isInertUrl('')).toBe(true)
    expect(isInertUrl('/api/x')).toBe(false)
    expect(isInertUrl('javascript:alert(1)')).toBe(false)
  })
})
