import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BLOCK_BYTES, openFileBlocks } from './file-blocks.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-file-blocks-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A file of `size` bytes whose byte i is a hash of i, so a misplaced block shows. */
function makeFile(size: number): { file: string; bytes: Buffer } {
  const bytes = Buffer.alloc(size)
  for (let i = 0; i < size; i++) bytes[i] = (Math.imul(i, 2654435761) >>> 24) & 0xff
  const file = path.join(dir, `data-${size}`)
  fs.writeFileSync(file, bytes)
  return { file, bytes }
}

describe('openFileBlocks', () => {
  // Three whole blocks and a short last one.
  const { file, bytes } = makeFile(3 * BLOCK_BYTES + 1000)

  it('reads the same bytes as the file holds, within and across blocks, with eviction', () => {
    const blocks = openFileBlocks(file, 2)
    expect(blocks.size).toBe(bytes.length)
    let seed = 7
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed / 2 ** 32
    }
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(next() * 9000)
      const position = Math.floor(next() * (bytes.length - length + 1))
      const read = blocks.read(position, length)
      expect(Buffer.compare(read, bytes.subarray(position, position + length)), `${position}+${length}`).toBe(
        0,
      )
      expect(blocks.cachedBlocks()).toBeLessThanOrEqual(2)
    }
    // The whole file in one read (four blocks through a cache of two), and the short last block.
    expect(Buffer.compare(blocks.read(0, bytes.length), bytes)).toBe(0)
    expect(Buffer.compare(blocks.read(bytes.length - 10, 10), bytes.subarray(bytes.length - 10))).toBe(0)
    expect(blocks.read(bytes.length, 0).length).toBe(0)
    blocks.close()
  })

  it('keeps a block read over and over while others come and go', () => {
    const blocks = openFileBlocks(file, 2)
    const hot = bytes.subarray(5, 12)
    for (let i = 0; i < 50; i++) {
      expect(Buffer.compare(blocks.read(5, 7), hot)).toBe(0)
      const other = 1 + (i % 3)
      const position = other * BLOCK_BYTES + 3
      expect(Buffer.compare(blocks.read(position, 5), bytes.subarray(position, position + 5))).toBe(0)
    }
    blocks.close()
  })

  it('fills more than one buffer of blocks, and evicts across them', () => {
    const large = makeFile(600 * BLOCK_BYTES + 17)
    const blocks = openFileBlocks(large.file, 300)
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 601; i++) {
        // A stride coprime with 601 visits every block in a scattered order.
        const index = (i * 233 + round * 101) % 601
        const position = index * BLOCK_BYTES + (index % 3)
        const length = Math.min(40, large.bytes.length - position)
        const expected = large.bytes.subarray(position, position + length)
        expect(Buffer.compare(blocks.read(position, length), expected), `block ${index}`).toBe(0)
      }
      expect(blocks.cachedBlocks()).toBe(300)
    }
    blocks.close()
  })

  it('refuses reads outside the file', () => {
    const blocks = openFileBlocks(file, 4)
    expect(() => blocks.read(bytes.length - 2, 3)).toThrow(RangeError)
    expect(() => blocks.read(-1, 1)).toThrow(RangeError)
    expect(() => blocks.read(0.5, 1)).toThrow(RangeError)
    blocks.close()
  })

  it('throws after close, and close twice is a no-op', () => {
    const blocks = openFileBlocks(file, 4)
    blocks.read(0, 1)
    blocks.close()
    blocks.close()
    expect(blocks.cachedBlocks()).toBe(0)
    expect(() => blocks.read(0, 1)).toThrow(/closed/)
  })

  it('refuses a budget that is not a positive integer, and a missing file', () => {
    expect(() => openFileBlocks(file, 0)).toThrow(RangeError)
    expect(() => openFileBlocks(file, 1.5)).toThrow(RangeError)
    expect(() => openFileBlocks(path.join(dir, 'missing'), 4)).toThrow(/ENOENT/)
  })
})
