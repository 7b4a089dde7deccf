/**
 * Positional reads of a read-only file through a bounded cache of fixed-size blocks, so that a large
 * file (a MaxMind DB) can be searched without holding it in the process's memory: only the blocks a
 * lookup touched stay resident, up to a fixed budget, and the rest is left to the kernel's page cache,
 * which is shared, reclaimable and not part of the process's resident set.
 */
import fs from 'node:fs'

/** Bytes per cached block: one page, the unit the kernel reads anyway. */
export const BLOCK_BYTES = 4096
/** Blocks per buffer of the cache (1 MiB): the cache grows by one as it fills, up to its budget. */
const CHUNK_BLOCKS = 256

/**
 * An open file read in blocks.
 *
 * - `size`: the file's length in bytes when it was opened.
 * - `read(position, length)`: bytes `[position, position + length)`. Within one block the result is a
 *   view on the cached block (do not write to it, do not keep it past the next read); across blocks it
 *   is a fresh copy. Throws a `RangeError` when the range is not inside the file, and whatever `fs`
 *   throws after `close()` or on an I/O error.
 * - `cachedBlocks()`: how many blocks are held now (at most the `maxBlocks` given to
 *   {@link openFileBlocks}).
 * - `close()`: closes the file and drops the cache; idempotent.
 */
export interface FileBlocks {
  readonly size: number
  read(position: number, length: number): Buffer
  cachedBlocks(): number
  close(): void
}

/** The first byte of `slot` in its chunk. */
function slotStart(slot: number): number {
  return (slot % CHUNK_BLOCKS) * BLOCK_BYTES
}

/**
 * Opens `file` for block reads.
 *
 * @param maxBlocks blocks kept at most (each {@link BLOCK_BYTES}, in buffers of 1 MiB allocated as the
 *   cache fills); when full, a block not read recently is dropped (CLOCK). A positive integer.
 * @throws if the file cannot be opened, or `maxBlocks` is not a positive integer.
 */
export function openFileBlocks(file: string, maxBlocks: number): FileBlocks {
  if (!Number.isInteger(maxBlocks) || maxBlocks < 1) {
    throw new RangeError(`maxBlocks must be a positive integer, got ${maxBlocks}`)
  }
  let fd: number | null = fs.openSync(file, 'r')
  const size = fs.fstatSync(fd).size
  // Up to `maxBlocks` slots in 1 MiB chunks, allocated as they are first needed, and CLOCK eviction: a
  // hit only marks its slot as referenced, a miss sweeps the hand past referenced slots (clearing the
  // mark) to the first one not read since the last sweep.
  const chunks: Buffer[] = []
  const slotOfBlock = new Map<number, number>()
  const blockInSlot = new Float64Array(maxBlocks)
  const referenced = new Uint8Array(maxBlocks)
  let used = 0
  let hand = 0

  /** The chunk that holds `slot` (its first byte there: {@link slotStart}). */
  const chunkOf = (slot: number): Buffer => {
    const chunk = chunks[Math.floor(slot / CHUNK_BLOCKS)]
    if (chunk === undefined) throw new RangeError(`slot ${slot} has no buffer`)
    return chunk
  }

  /** Slot holding block `index`, read from the file on a miss. */
  const slotOf = (index: number): number => {
    const cached = slotOfBlock.get(index)
    if (cached !== undefined) {
      referenced[cached] = 1
      return cached
    }
    if (fd === null) throw new Error(`${file} is closed`)
    let slot: number
    if (used < maxBlocks) {
      slot = used++
      if (slot >= chunks.length * CHUNK_BLOCKS) {
        const blocks = Math.min(CHUNK_BLOCKS, maxBlocks - chunks.length * CHUNK_BLOCKS)
        chunks.push(Buffer.allocUnsafeSlow(blocks * BLOCK_BYTES))
      }
    } else {
      while (referenced[hand] === 1) {
        referenced[hand] = 0
        hand = (hand + 1) % maxBlocks
      }
      slot = hand
      hand = (hand + 1) % maxBlocks
      slotOfBlock.delete(blockInSlot[slot] ?? -1)
    }
    const start = index * BLOCK_BYTES
    const length = Math.min(BLOCK_BYTES, size - start)
    const chunk = chunkOf(slot)
    const at = slotStart(slot)
    let filled = 0
    while (filled < length) {
      const n = fs.readSync(fd, chunk, at + filled, length - filled, start + filled)
      if (n === 0) throw new Error(`${file} ended at ${start + filled} bytes, expected ${size}`)
      filled += n
    }
    slotOfBlock.set(index, slot)
    blockInSlot[slot] = index
    referenced[slot] = 1
    return slot
  }

  return {
    size,
    read(position: number, length: number): Buffer {
      if (!Number.isInteger(position) || !Number.isInteger(length) || position < 0 || length < 0) {
        throw new RangeError(`invalid read of ${length} bytes at ${position}`)
      }
      if (position + length > size) {
        throw new RangeError(`read of ${length} bytes at ${position} is past the end (${size} bytes)`)
      }
      const first = Math.floor(position / BLOCK_BYTES)
      const offset = position - first * BLOCK_BYTES
      if (offset + length <= BLOCK_BYTES) {
        const slot = slotOf(first)
        const at = slotStart(slot) + offset
        return chunkOf(slot).subarray(at, at + length)
      }
      const out = Buffer.allocUnsafe(length)
      let copied = 0
      while (copied < length) {
        const at = position + copied
        const index = Math.floor(at / BLOCK_BYTES)
        const from = at - index * BLOCK_BYTES
        const slot = slotOf(index)
        const base = slotStart(slot)
        const until = Math.min(BLOCK_BYTES, from + length - copied)
        copied += chunkOf(slot).copy(out, copied, base + from, base + until)
      }
      return out
    },
    cachedBlocks: () => slotOfBlock.size,
    close(): void {
      if (fd === null) return
      fs.closeSync(fd)
      fd = null
      slotOfBlock.clear()
      chunks.length = 0
      used = 0
      hand = 0
    },
  }
}
