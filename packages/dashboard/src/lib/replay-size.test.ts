import { describe, expect, it } from 'vitest'
import { playerSize, recordedViewport } from './replay-size'

describe('recordedViewport', () => {
  it('is the largest viewport of the Meta events, null without one', () => {
    expect(
      recordedViewport([
        { type: 4, data: { href: 'https://example.com/', width: 390, height: 844 } },
        { type: 2, data: {} },
        { type: 4, data: { width: 1280, height: 720 } },
        { type: 4, data: { width: 'wide', height: 1 } },
      ]),
    ).toEqual({ width: 1280, height: 720 })
    expect(recordedViewport([{ type: 3, data: {} }])).toBeNull()
  })
})

describe('playerSize', () => {
  it("fills the width and keeps the recording's proportions within the height bound", () => {
    expect(playerSize(800.6, { width: 1280, height: 720 }, 1000)).toEqual({ width: 800, height: 450 })
    expect(playerSize(800, { width: 390, height: 844 }, 600)).toEqual({ width: 800, height: 600 })
    expect(playerSize(800, null, 1000)).toEqual({ width: 800, height: 500 })
  })
})
