/**
 * One line of a site's export (`GET /api/sites/{siteId}/export`, NDJSON), which the import takes back
 * "as is": every stored field of an event under the names of the v1 events API (`eventId`,
 * `timestamp`, `sessionId`, `userId`, `pageTitle`, `eventName`, `properties` as an object, ...) and,
 * for the fields v1 does not list, the camelCase of the column (`utmSource`, `referrerDomain`,
 * `browserVersion`, `screenWidth`, `lat`, `lcp`, `errorMessage`, ...). The site is not part of a line:
 * the import path names it.
 */
import { z } from 'zod'
import { isoTimestampError } from './calendar-time.js'
import { canonicalPropertiesOf } from './canonical-properties.js'
import { channelNames, eventTypes } from './enums.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`)
const metric = z.number().finite().min(0, 'must be a non-negative number').nullable()
const uint = (max: number) =>
  z.int('must be an integer').min(0, 'must be non-negative').max(max, 'is too large')

/** An exported line as the importer validates it; bounds are those of the stored columns. */
export const exportedEventSchema = z.strictObject({
  eventId: z.uuid('must be a UUID'),
  // zod's pattern refuses impossible dates too; the message then says which part does not exist.
  timestamp: z.iso.datetime({
    offset: true,
    error: (issue) => isoTimestampError(issue.input) ?? 'must be an ISO 8601 date-time with Z or an offset',
  }),
  type: z.enum(eventTypes, { error: `must be one of ${eventTypes.join(', ')}` }),
  sessionId: text(64),
  userId: text(256),
  hostname: text(253),
  pathname: text(2048),
  querystring: text(2048),
  pageTitle: text(512),
  referrer: text(2048),
  referrerDomain: text(253),
  channel: z.enum(['', ...channelNames], {
    error: `must be '' or one of ${channelNames.join(', ')} (as Pathlight assigns them)`,
  }),
  utmSource: text(2048),
  utmMedium: text(2048),
  utmCampaign: text(2048),
  utmTerm: text(2048),
  utmContent: text(2048),
  browser: text(128),
  browserVersion: text(64),
  operatingSystem: text(128),
  operatingSystemVersion: text(64),
  deviceType: text(32),
  screenWidth: uint(65_535),
  screenHeight: uint(65_535),
  language: text(35),
  country: text(2),
  region: text(128),
  city: text(128),
  lat: z.number().min(-90).max(90).nullable(),
  lon: z.number().min(-180).max(180).nullable(),
  eventName: text(256),
  properties: z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
    .superRefine((properties, ctx) => {
      const canonical = canonicalPropertiesOf(properties)
      if ('error' in canonical) ctx.addIssue({ code: 'custom', message: canonical.error })
    }),
  lcp: metric,
  cls: metric,
  inp: metric,
  fcp: metric,
  ttfb: metric,
  errorMessage: text(2048),
  errorStack: text(4096),
  errorFile: text(2048),
  errorLine: uint(0xffffffff),
  errorColumn: uint(0xffffffff),
})

/** An exported line (the answer type of the export, the input of an "as is" import). */
export type ExportedEvent = z.infer<typeof exportedEventSchema>
