/**
 * Decoder of the MaxMind DB data format (format version 2: the data section and the metadata section
 * share it), reading through {@link FileBlocks} rather than a whole-file buffer.
 */
import type { FileBlocks } from './file-blocks.js'

/**
 * A decoded value. Strings, doubles, floats, booleans and maps/arrays as their JavaScript kinds;
 * unsigned and signed integers up to 32 bits as numbers; 64- and 128-bit unsigned integers as numbers
 * when at most `Number.MAX_SAFE_INTEGER`, else as bigints; `bytes` as a Buffer copy.
 */
export type MmdbValue =
  | string
  | number
  | bigint
  | boolean
  | Buffer
  | MmdbValue[]
  | { [key: string]: MmdbValue }

/** A decoded value and the section offset of the byte after it. */
export interface Decoded {
  value: MmdbValue
  next: number
}

const POINTER = 1
const UTF8_STRING = 2
const DOUBLE = 3
const BYTES = 4
const UINT16 = 5
const UINT32 = 6
const MAP = 7
const INT32 = 8
const UINT64 = 9
const UINT128 = 10
const ARRAY = 11
const BOOLEAN = 14
const FLOAT = 15

/** Values nested deeper than this are refused: a corrupt file must not overflow the stack. */
const MAX_DEPTH = 64

/**
 * Decodes the value at `offset` of the section that starts at byte `base` of the file. Pointers are
 * offsets into that same section (the data section for records, the metadata section for metadata).
 *
 * @throws an `Error` naming the offset for a type the format does not allow there (a pointer to a
 *   pointer, a data-cache container, an end marker, an unknown type, a map key that is not a string,
 *   an integer wider than its type) and a `RangeError` for a read past the end of the file.
 */
export function decodeMmdbValue(blocks: FileBlocks, base: number, offset: number): Decoded {
  return decode(blocks, base, offset, 0)
}

function decode(blocks: FileBlocks, base: number, offset: number, depth: number): Decoded {
  if (depth > MAX_DEPTH) throw new Error(`MaxMind DB: values nested deeper than ${MAX_DEPTH} at ${offset}`)
  let at = base + offset
  const control = byteAt(blocks, at++)
  let type = control >> 5
  if (type === POINTER) {
    const extra = ((control >> 3) & 0x3) + 1
    const bytes = blocks.read(at, extra)
    at += extra
    const high = control & 0x7
    let target: number
    if (extra === 1) target = (high << 8) | byte(bytes, 0)
    else if (extra === 2) target = ((high << 16) | (byte(bytes, 0) << 8) | byte(bytes, 1)) + 2048
    else if (extra === 3) target = high * 0x1000000 + unsigned(bytes, 0, 3) + 526336
    else target = unsigned(bytes, 0, 4)
    if (byteAt(blocks, base + target) >> 5 === POINTER) {
      throw new Error(`MaxMind DB: pointer to a pointer at ${offset}`)
    }
    return { value: decode(blocks, base, target, depth + 1).value, next: at - base }
  }
  if (type === 0) type = 7 + byteAt(blocks, at++)
  let size = control & 0x1f
  if (size >= 29) {
    const extra = size - 28
    const bytes = blocks.read(at, extra)
    at += extra
    if (size === 29) size = 29 + byte(bytes, 0)
    else if (size === 30) size = 285 + unsigned(bytes, 0, 2)
    else size = 65821 + unsigned(bytes, 0, 3)
  }

  switch (type) {
    case UTF8_STRING:
      return { value: blocks.read(at, size).toString('utf8'), next: at + size - base }
    case DOUBLE:
      expectSize(size, 8, 'double', offset)
      return { value: blocks.read(at, 8).readDoubleBE(0), next: at + 8 - base }
    case FLOAT:
      expectSize(size, 4, 'float', offset)
      return { value: blocks.read(at, 4).readFloatBE(0), next: at + 4 - base }
    case BYTES:
      return { value: Buffer.from(blocks.read(at, size)), next: at + size - base }
    case UINT16:
    case UINT32:
    case UINT64:
    case UINT128: {
      const width = type === UINT16 ? 2 : type === UINT32 ? 4 : type === UINT64 ? 8 : 16
      if (size > width) throw new Error(`MaxMind DB: ${size}-byte integer wider than its type at ${offset}`)
      return { value: unsignedValue(blocks.read(at, size)), next: at + size - base }
    }
    case INT32: {
      if (size > 4) throw new Error(`MaxMind DB: ${size}-byte int32 at ${offset}`)
      const bytes = blocks.read(at, size)
      const raw = unsigned(bytes, 0, size)
      // Only a full four bytes can carry the sign bit; shorter encodings are non-negative.
      return { value: size === 4 ? raw | 0 : raw, next: at + size - base }
    }
    case BOOLEAN:
      if (size > 1) throw new Error(`MaxMind DB: boolean of size ${size} at ${offset}`)
      return { value: size === 1, next: at - base }
    case MAP: {
      const map: { [key: string]: MmdbValue } = {}
      let next = at - base
      for (let i = 0; i < size; i++) {
        const key = decode(blocks, base, next, depth + 1)
        if (typeof key.value !== 'string') throw new Error(`MaxMind DB: map key is not a string at ${next}`)
        const value = decode(blocks, base, key.next, depth + 1)
        map[key.value] = value.value
        next = value.next
      }
      return { value: map, next }
    }
    case ARRAY: {
      const array: MmdbValue[] = []
      let next = at - base
      for (let i = 0; i < size; i++) {
        const item = decode(blocks, base, next, depth + 1)
        array.push(item.value)
        next = item.next
      }
      return { value: array, next }
    }
    default:
      throw new Error(`MaxMind DB: unexpected data type ${type} at ${offset}`)
  }
}

function byteAt(blocks: FileBlocks, position: number): number {
  return byte(blocks.read(position, 1), 0)
}

function byte(bytes: Buffer, index: number): number {
  const value = bytes[index]
  if (value === undefined) throw new RangeError(`byte ${index} of ${bytes.length}`)
  return value
}

/** Big-endian unsigned integer of `length` (at most 6) bytes from `start`, as a number. */
function unsigned(bytes: Buffer, start: number, length: number): number {
  let value = 0
  for (let i = 0; i < length; i++) value = value * 256 + byte(bytes, start + i)
  return value
}

/** Big-endian unsigned integer of any width: a number when safe, else a bigint. */
function unsignedValue(bytes: Buffer): number | bigint {
  if (bytes.length <= 6) return unsigned(bytes, 0, bytes.length)
  let value = 0n
  for (const b of bytes) value = (value << 8n) | BigInt(b)
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
}

function expectSize(size: number, expected: number, kind: string, offset: number): void {
  if (size !== expected) throw new Error(`MaxMind DB: ${kind} of size ${size} at ${offset}`)
}
