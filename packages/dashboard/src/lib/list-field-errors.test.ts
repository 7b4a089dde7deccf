import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api-error'
import { listFieldErrors } from './list-field-errors'

describe('listFieldErrors', () => {
  it('gathers the list and its entries, naming entries from 1', () => {
    const error = new ApiError(400, 'Invalid e-mail report', {
      recipients: ['must not name an address twice'],
      'recipients.1': ['must be an e-mail address such as someone@example.com'],
      frequency: ['must be weekly or monthly'],
      'recipientsX.0': ['other'],
    })
    expect(listFieldErrors(error, 'recipients')).toEqual([
      'must not name an address twice',
      'Entry 2: must be an e-mail address such as someone@example.com',
    ])
    expect(listFieldErrors(error, 'timeZone')).toBeUndefined()
    expect(listFieldErrors(undefined, 'recipients')).toBeUndefined()
  })
})
