import { describe, expect, it } from 'vitest'
import { formatList, parseList } from './lists'

describe('parseList', () => {
  it('splits on lines, commas and spaces, dropping blanks and duplicates', () => {
    expect(parseList('10.0.0.1\n\n 192.168.0.0/16 ,2001:db8::/32;10.0.0.1\r\n')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '2001:db8::/32',
    ])
    expect(parseList('  ')).toEqual([])
    expect(parseList(formatList(['DE', 'FR']))).toEqual(['DE', 'FR'])
  })
})
