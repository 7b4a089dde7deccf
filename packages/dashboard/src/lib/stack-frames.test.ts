import { describe, expect, it } from 'vitest'
import { parseStack } from './stack-frames'

describe('parseStack', () => {
  it('reads Chromium and Firefox frames and keeps the message', () => {
    expect(
      parseStack(
        "TypeError: Cannot read properties of undefined (reading 'x')\n    at load (https://example.com/app.js:12:7)\n    at https://example.com/main.js:3:1\n\nrender@https://example.com/ui.js:40:9",
      ),
    ).toEqual([
      { kind: 'text', text: "TypeError: Cannot read properties of undefined (reading 'x')" },
      { kind: 'frame', fn: 'load', file: 'https://example.com/app.js', line: 12, column: 7 },
      { kind: 'frame', fn: '(anonymous)', file: 'https://example.com/main.js', line: 3, column: 1 },
      { kind: 'frame', fn: 'render', file: 'https://example.com/ui.js', line: 40, column: 9 },
    ])
  })
})
