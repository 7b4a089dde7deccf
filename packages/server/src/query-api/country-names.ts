/**
 * Country names for `visit:country_name`: the English name of each ISO 3166-1 alpha-2 code, from the
 * runtime's ICU data (`Intl.DisplayNames`), as Plausible names countries (`Germany`, `United States`).
 */
import type { QueryApiOperator } from '@pathlight/protocol'

const names = new Intl.DisplayNames(['en'], { type: 'region' })
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** Every code the runtime names, with its name (codes it does not know are left out). */
const codes: [string, string][] = [...LETTERS].flatMap((a) =>
  [...LETTERS].flatMap((b): [string, string][] => {
    const code = a + b
    const name = names.of(code)
    return name && name !== code ? [[code, name]] : []
  }),
)

/** Every known code, and its name at the same index (for SQL's `transform`). */
export const COUNTRY_CODES = codes.map(([code]) => code)
export const COUNTRY_NAMES = codes.map(([, name]) => name)

/** The codes whose names match a condition's values (its positive form: the caller negates). */
export function countryCodesNamed(
  values: readonly string[],
  operator: QueryApiOperator,
  caseSensitive: boolean,
): string[] {
  const fold = (text: string) => (caseSensitive ? text : text.toLowerCase())
  const wanted = values.map(fold)
  const test = (name: string): boolean => {
    const folded = fold(name)
    if (operator === 'is' || operator === 'is_not') return wanted.includes(folded)
    if (operator === 'contains' || operator === 'contains_not') return wanted.some((v) => folded.includes(v))
    return values.some((v) => new RegExp(v, caseSensitive ? 'u' : 'iu').test(name))
  }
  return codes.filter(([, name]) => test(name)).map(([code]) => code)
}
