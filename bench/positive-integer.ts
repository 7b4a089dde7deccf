/**
 * A benchmark setting from the environment: a positive integer, or `fallback` when unset or empty.
 * @throws Error naming the variable when it is set to anything else
 */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${raw}`)
  return value
}
