import { z } from 'zod'
import { tooDeep } from '../../shared/too-deep.js'
import type { Incoming } from '../draft.js'
import { parseIp } from '../enrich/parse-ip.js'
import type { RejectReason } from '../outcome.js'
import { type TrackPayload, trackPayloadSchema } from '../payload.js'

/**
 * Parse the tracking body (a JSON object, or a string holding one when sent as text/plain) with the
 * spec's schema, after the nesting bound (`MAX_JSON_DEPTH`, the field named). Failure gives `invalid_payload` with zod's flattened `{fieldErrors, formErrors}`.
 */
export function parsePayload(
  incoming: Incoming,
): { ok: true; payload: TrackPayload } | { ok: false; reason: RejectReason } {
  let body = incoming.body
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body)
    } catch {
      return invalid({}, ['Body must be a JSON object'])
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return invalid({}, ['Body must be a JSON object'])
  }
  const deep = tooDeep(body)
  if (deep) return invalid(deep.details.fieldErrors, deep.details.formErrors)
  const parsed = trackPayloadSchema.safeParse(body)
  if (!parsed.success) {
    const flat = z.flattenError(parsed.error)
    return invalid(flat.fieldErrors as Record<string, string[]>, flat.formErrors)
  }
  const ip = parsed.data.ip_address
  if (ip !== undefined && ip !== '' && parseIp(ip) === null) {
    return invalid({ ip_address: ['must be an IPv4 or IPv6 address'] }, [])
  }
  return { ok: true, payload: parsed.data }
}

const invalid = (fieldErrors: Record<string, string[]>, formErrors: string[]) =>
  ({ ok: false, reason: { kind: 'invalid_payload', details: { fieldErrors, formErrors } } }) as const
