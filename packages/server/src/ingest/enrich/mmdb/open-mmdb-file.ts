/**
 * A MaxMind DB (format version 2) searched in place on disk: the binary search tree and the data
 * section are read through a bounded block cache ({@link openFileBlocks}) instead of being read whole
 * into memory, so an open database costs the process only the blocks its lookups touch, up to a budget.
 */
import { createTtlCache } from '../../../shared/ttl-cache.js'
import { decodeMmdbValue, type MmdbValue } from './decode-mmdb-value.js'
import { type FileBlocks, openFileBlocks } from './file-blocks.js'

/** The fields of a database's metadata that a search needs, plus its type and build time. */
export interface MmdbMetadata {
  /** 4 (IPv4 tree) or 6 (IPv6 tree, IPv4 under `::/96`). */
  ipVersion: 4 | 6
  /** Nodes in the search tree. */
  nodeCount: number
  /** Bits per record: 24, 28 or 32. */
  recordSize: 24 | 28 | 32
  /** The `database_type` string, e.g. 'GeoLite2-City'. */
  databaseType: string
  /** Build time (`build_epoch`, seconds since 1970). */
  buildEpoch: Date
}

/**
 * An open database.
 *
 * - `get(address)`: the record of the network that holds `address`, given as its bytes (4 for IPv4,
 *   16 for IPv6; an IPv4 address in an IPv6 database is looked up under `::/96`), or `null` when the
 *   database has no record for it, or for an IPv6 address in an IPv4 database. Records are shared
 *   between calls through a cache: do not modify them. Throws on a corrupt file (a read past its end,
 *   a value the format does not allow) and after `close()`.
 * - `cachedBlocks()`: file blocks of 4 KiB held now.
 * - `close()`: closes the file and drops the caches; idempotent.
 */
export interface MmdbFile {
  readonly metadata: MmdbMetadata
  get(address: ArrayLike<number>): MmdbValue | null
  cachedBlocks(): number
  close(): void
}

/** Cache budgets of {@link openMmdbFile}. */
export interface MmdbFileOptions {
  /** File blocks of 4 KiB kept at most (the least recently read are dropped). */
  maxBlocks: number
  /** Decoded records kept at most, by their offset in the data section. */
  maxRecords: number
}

/** The metadata section follows the last occurrence of this marker, within the file's last 128 KiB. */
const METADATA_MARKER = Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1')
const METADATA_MAX_BYTES = 128 * 1024
/** Zero bytes between the search tree and the data section. */
const DATA_SEPARATOR_BYTES = 16

/**
 * Opens a MaxMind DB file for lookups.
 *
 * @throws if the file cannot be read, has no metadata marker, is not format version 2, or has
 *   metadata outside what the format allows (record size, IP version, node count).
 */
export function openMmdbFile(file: string, options: MmdbFileOptions): MmdbFile {
  const blocks = openFileBlocks(file, options.maxBlocks)
  try {
    const metadata = readMetadata(blocks, file)
    const nodeBytes = metadata.recordSize / 4
    const treeBytes = metadata.nodeCount * nodeBytes
    const dataBase = treeBytes + DATA_SEPARATOR_BYTES
    const { nodeCount, recordSize } = metadata
    if (dataBase > blocks.size) throw new Error(`${file}: the search tree is longer than the file`)
    const records = createTtlCache<number, MmdbValue>({
      ttlMs: Number.POSITIVE_INFINITY,
      maxEntries: options.maxRecords,
      lru: true,
    })

    /** The left (`bit` 0) or right (`bit` 1) record of `node`. */
    const child = (node: number, bit: number): number => {
      const b = blocks.read(node * nodeBytes, nodeBytes)
      if (recordSize === 32) return b.readUInt32BE(bit * 4)
      if (recordSize === 24) return b.readUIntBE(bit * 3, 3)
      // 28 bits: the middle byte's high nibble tops the left record, its low nibble the right one.
      const middle = b.readUInt8(3)
      return bit === 0
        ? ((middle & 0xf0) << 20) | b.readUIntBE(0, 3)
        : ((middle & 0x0f) << 24) | b.readUIntBE(4, 3)
    }

    // IPv4 addresses in an IPv6 tree live under 96 zero bits.
    let ipv4Start = 0
    if (metadata.ipVersion === 6) {
      for (let i = 0; i < 96 && ipv4Start < nodeCount; i++) ipv4Start = child(ipv4Start, 0)
    }

    const resolve = (pointer: number): MmdbValue => {
      const offset = pointer - nodeCount - DATA_SEPARATOR_BYTES
      const cached = records.get(offset)
      if (cached !== undefined) return cached
      const { value } = decodeMmdbValue(blocks, dataBase, offset)
      records.set(offset, value)
      return value
    }

    return {
      metadata,
      get(address: ArrayLike<number>): MmdbValue | null {
        const bits = address.length * 8
        if (bits !== 32 && bits !== 128)
          throw new RangeError(`an address has 4 or 16 bytes, got ${address.length}`)
        if (bits === 128 && metadata.ipVersion === 4) return null
        let node = bits === 32 ? ipv4Start : 0
        for (let i = 0; i < bits && node < nodeCount; i++) {
          const bit = ((address[i >> 3] ?? 0) >> (7 - (i & 7))) & 1
          node = child(node, bit)
        }
        if (node === nodeCount) return null
        if (node < nodeCount) throw new Error(`${file}: the search tree is deeper than the address`)
        return resolve(node)
      },
      cachedBlocks: () => blocks.cachedBlocks(),
      close(): void {
        blocks.close()
        records.clear()
      },
    }
  } catch (error) {
    blocks.close()
    throw error
  }
}

function readMetadata(blocks: FileBlocks, file: string): MmdbMetadata {
  const tailStart = Math.max(0, blocks.size - METADATA_MAX_BYTES)
  const tail = Buffer.from(blocks.read(tailStart, blocks.size - tailStart))
  const marker = tail.lastIndexOf(METADATA_MARKER)
  if (marker < 0) throw new Error(`${file} is not a MaxMind DB (no metadata marker)`)
  const start = tailStart + marker + METADATA_MARKER.length
  const { value } = decodeMmdbValue(blocks, start, 0)
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Buffer.isBuffer(value)) {
    throw new Error(`${file}: the metadata is not a map`)
  }
  const major = value.binary_format_major_version
  if (major !== 2) throw new Error(`${file}: MaxMind DB format version ${String(major)}, expected 2`)
  const { ip_version: ipVersion, node_count: nodeCount, record_size: recordSize } = value
  if (ipVersion !== 4 && ipVersion !== 6) throw new Error(`${file}: ip_version ${String(ipVersion)}`)
  if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) {
    throw new Error(`${file}: record_size ${String(recordSize)}`)
  }
  if (typeof nodeCount !== 'number' || !Number.isInteger(nodeCount) || nodeCount < 1) {
    throw new Error(`${file}: node_count ${String(nodeCount)}`)
  }
  const epoch = value.build_epoch
  return {
    ipVersion,
    nodeCount,
    recordSize,
    databaseType: typeof value.database_type === 'string' ? value.database_type : '',
    buildEpoch: new Date(Number(typeof epoch === 'number' || typeof epoch === 'bigint' ? epoch : 0) * 1000),
  }
}
