/**
 * A failed zod parse of a request body as one AppError 400, for validators that name the field in the
 * message: `Invalid <subject>: <field>: <problem>` (the first field error, else the first form error,
 * else 'invalid body').
 */
import type { z } from 'zod'
import { type AppError, badRequest } from './errors.js'

/**
 * @param subject what was invalid, e.g. 'goal'
 * @param issues zod's issues, in the order to report them
 * @param hint appended to the message as is
 * @returns AppError 400 with `details: {fieldErrors, formErrors}`: field errors keyed by dotted path
 *   ('variants.1.name'), body-level ones in `formErrors`; an unknown-keys issue lists the keys after
 *   its message
 */
export function invalidBody(subject: string, issues: z.ZodError['issues'], hint = ''): AppError {
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  for (const issue of issues) {
    const message =
      'keys' in issue && Array.isArray(issue.keys)
        ? `${issue.message}: ${issue.keys.join(', ')}`
        : issue.message
    if (issue.path.length === 0) formErrors.push(message)
    else {
      const field = issue.path.join('.')
      fieldErrors[field] = [...(fieldErrors[field] ?? []), message]
    }
  }
  const [field, messages] = Object.entries(fieldErrors)[0] ?? [undefined, formErrors]
  const first = messages?.[0] ?? 'invalid body'
  return badRequest(`Invalid ${subject}: ${field ? `${field}: ` : ''}${first}${hint}`, {
    fieldErrors,
    formErrors,
  })
}

/** `reports[3].params.limit` for zod's path `['reports', 3, 'params', 'limit']`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join('')
}
