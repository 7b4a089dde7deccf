import { describe, expect, it } from 'vitest'
import { ndjsonLines } from './ndjson-lines.js'

const limits = { maxBytes: 1000, maxLineBytes: 20 }
const collect = async (chunks: (string | Buffer)[], custom = limits) => {
  const lines: string[] = []
  for await (const line of ndjsonLines(chunks, custom)) lines.push(line)
  return lines
}

describe('ndjsonLines', () => {
  it('splits at line breaks across chunks, drops CR, keeps a last line without a break', async () => {
    expect(await collect(['{"a":1}\r\n{"b"', ':2}\n\n{"c":3}'])).toEqual([
      '{"a":1}',
      '{"b":2}',
      '',
      '{"c":3}',
    ])
  })

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = Buffer.from('"é€"\n')
    expect(await collect([bytes.subarray(0, 2), bytes.subarray(2, 4), bytes.subarray(4)])).toEqual(['"é€"'])
  })

  it('refuses a body or a line over its limit with 413, after yielding the lines before', async () => {
    const seen: string[] = []
    await expect(
      (async () => {
        for await (const line of ndjsonLines(['ok\n', 'x'.repeat(21), '\n'], limits)) seen.push(line)
      })(),
    ).rejects.toMatchObject({ status: 413, message: expect.stringContaining('A line is over 20 bytes') })
    expect(seen).toEqual(['ok'])
    await expect(collect(['a\n'.repeat(600)])).rejects.toMatchObject({ status: 413 })
    await expect(collect([`${'é'.repeat(11)}\n`])).rejects.toMatchObject({ status: 413 })
  })
})
