import { describe, expect, it } from 'vitest'
import { trackingSnippet } from './snippet'

describe('trackingSnippet', () => {
  it('points at the script of this origin', () => {
    expect(trackingSnippet('https://stats.example.com/', 7)).toBe(
      '<script defer src="https://stats.example.com/api/script.js" data-site-id="7"></script>',
    )
  })
})
