/** The `name` of a named thing (a site, an API key): the one text field most bodies share. */
import { z } from 'zod'
import { isNulFree, nulMessage } from './nul-free.js'

/** A `name`: 1 to `max` characters after trimming, no NUL. */
export const nameField = (max = 100) =>
  z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(max, `name must be at most ${max} characters`)
    .refine(isNulFree, nulMessage('name'))
