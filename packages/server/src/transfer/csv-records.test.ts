import { describe, expect, it } from 'vitest'
import { AppError } from '../shared/errors.js'
import { csvRecords } from './csv-records.js'

const limits = { maxBytes: 1000, maxRecordChars: 100 }

async function collect(chunks: (string | Buffer)[], bounds = limits) {
  const out: { record: number; fields: string[] }[] = []
  for await (const record of csvRecords(chunks, bounds)) out.push(record)
  return out
}

describe('csvRecords', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, across chunk boundaries', async () => {
    const text = '\uFEFFa,b,c\r\n1,"x, ""y""",\n\n2,"line\none",z\n'
    const chunks = [...Buffer.from(text)].map((byte) => Buffer.from([byte]))
    expect(await collect(chunks)).toEqual([
      { record: 1, fields: ['a', 'b', 'c'] },
      { record: 2, fields: ['1', 'x, "y"', ''] },
      { record: 3, fields: ['2', 'line\none', 'z'] },
    ])
  })

  it('keeps records of another length for the consumer to name', async () => {
    expect(await collect(['a,b\n1\n1,2,3'])).toEqual([
      { record: 1, fields: ['a', 'b'] },
      { record: 2, fields: ['1'] },
      { record: 3, fields: ['1', '2', '3'] },
    ])
  })

  it('answers 413 past the byte or record limit, 400 for malformed quoting', async () => {
    const over = collect(['a\n', 'x'.repeat(600), '\n', 'y'.repeat(600)], {
      maxBytes: 1000,
      maxRecordChars: 10_000,
    })
    await expect(over).rejects.toMatchObject({ status: 413 })
    await expect(collect([`a\n${'x'.repeat(200)}\n`])).rejects.toMatchObject({
      status: 413,
      message: 'A row is over 100 characters; the rows before were imported',
    })
    const bad = collect(['a,b\n1,"unclosed\n'])
    await expect(bad).rejects.toBeInstanceOf(AppError)
    await expect(collect(['a,b\n1,"unclosed\n'])).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The CSV is malformed/),
    })
  })
})
