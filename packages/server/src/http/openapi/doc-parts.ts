/**
 * Pieces of route docs that several routes share: the usual answers and the analytics envelopes.
 * A route's own shapes stay in its `config.doc`.
 */
import { doc, successResponse } from '@pathlight/protocol'
import { z } from 'zod'
import { empty, json } from './route-doc.js'

/** 304 to a matching `If-None-Match`. */
export const notModified = empty('Not modified (the `If-None-Match` ETag matches)')

/** `{success:true}` after a deletion. */
export const deleted = json('Deleted', successResponse)

/** A body the document does not describe (Better Auth's own answers). */
export const anyJson = z.unknown()

/** A calendar day in the query's time zone. */
export const day = doc(z.string(), { format: 'date', description: 'YYYY-MM-DD in the time zone' })
