/**
 * The body of `POST /api/track`, as a zod schema (the server parses it; the tracker and `@pathlight/node`
 * check their own types against it). Length bounds (2,048 characters for URL parts, 4,096
 * for `properties`, ...) keep a single event small; `properties` is a JSON object, sent as a string
 * holding one (the spec's form) or as the object itself (custom events carry free keys; for the other
 * types it carries their fields: outbound url/text/target, error message/stack/...). Either way the
 * parsed body holds its canonical text (`canonical-properties.ts`: last duplicate key wins, numbers as
 * JavaScript writes them), which is what is stored.
 */
import { z } from 'zod'
import { canonicalPropertiesOf, canonicalPropertiesText } from './canonical-properties.js'
import { heatmapViewports, trackEventTypes } from './enums.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`)
const metric = z.number().finite().min(0, 'must be a non-negative number').max(3_600_000, 'is too large')
const fraction = z
  .number({ error: 'must be a number' })
  .finite()
  .min(0, 'must be at least 0')
  .max(1, 'must be at most 1')
const screen = z
  .number()
  .int('must be an integer')
  .min(0, 'must be non-negative')
  .max(100_000, 'is too large')

/**
 * The most characters of `properties`: 4,096 as sent (a string, or an object's `JSON.stringify`
 * text), and for every type but `error` 2,048 of its canonical text.
 */
const MAX_PROPERTIES_LENGTH = 4096
const MAX_PROPERTIES_LENGTH_NOT_ERROR = 2048

/**
 * `properties`: a string holding a JSON object, or the object; parsed into its canonical text.
 */
const propertiesField = z
  .union([
    text(MAX_PROPERTIES_LENGTH),
    z.record(z.string(), z.unknown(), {
      error: 'must be a JSON object (an object, or a string holding one)',
    }),
  ])
  .transform((value, ctx) => {
    const sent = typeof value === 'string' ? value : JSON.stringify(value)
    if (sent.length > MAX_PROPERTIES_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_PROPERTIES_LENGTH} characters` })
      return z.NEVER
    }
    const canonical =
      typeof value === 'string' ? canonicalPropertiesText(value) : canonicalPropertiesOf(value)
    if ('error' in canonical) {
      ctx.addIssue({ code: 'custom', message: canonical.error })
      return z.NEVER
    }
    return canonical.text
  })

export const trackPayloadSchema = z
  .object({
    site_id: z.union([z.string().max(20, 'must be at most 20 characters'), z.number()], {
      error: 'site_id is required (a site id as string or number)',
    }),
    type: z
      .enum(trackEventTypes, { error: `must be one of ${trackEventTypes.join(', ')}` })
      .default('pageview'),
    pathname: text(2048).optional(),
    hostname: text(253).optional(),
    page_title: text(512).optional(),
    /** The visitor's user agent and address, read only from requests with an API key (a server's). */
    user_agent: text(512).optional(),
    ip_address: text(45).optional(),
    querystring: text(2048).optional(),
    referrer: text(2048).optional(),
    user_id: text(256).optional(),
    screenWidth: screen.optional(),
    screenHeight: screen.optional(),
    language: text(35).optional(),
    event_name: text(256).optional(),
    properties: propertiesField.optional(),
    /** Web vitals; null (as Rybbit's SDK sends a metric it did not measure) is the same as absent. */
    lcp: metric.nullable().optional(),
    cls: z
      .number()
      .finite()
      .min(0, 'must be a non-negative number')
      .max(1000, 'is too large')
      .nullable()
      .optional(),
    inp: metric.nullable().optional(),
    fcp: metric.nullable().optional(),
    ttfb: metric.nullable().optional(),
    /**
     * An API key in the body instead of the `Authorization` header (as Rybbit's server SDK sends it):
     * the same key, with the same checks and limits. Never put a key in browser code.
     */
    api_key: text(256).optional(),
    /**
     * Type `engagement`: the deepest scroll of the pageview so far, in percent of the page's height
     * (the bottom of the viewport over the document's height; 100 when the page fits the viewport).
     */
    scroll_depth: z
      .number()
      .int('must be an integer')
      .min(0, 'must be non-negative')
      .max(100, 'must be at most 100')
      .optional(),
    /** Type `engagement`: engaged milliseconds since the pageview's previous engagement event (visible and active). */
    engagement_time: z
      .number()
      .int('must be an integer')
      .min(0, 'must be non-negative')
      .max(86_400_000, 'must be at most 86400000 (a day)')
      .optional(),
    /**
     * Type `heatmap_click`: the clicked element's selector path (ids, data attributes, tag and
     * nth-of-type, joined by ` > `; `packages/tracker/src/element-selector.ts`).
     */
    selector: text(1024).optional(),
    /** Type `heatmap_click`: the click's position inside the element's box, fractions 0-1 from its left and top. */
    click_x: fraction.optional(),
    click_y: fraction.optional(),
    /** Type `heatmap_click`: the viewport's width class (under 768 CSS px mobile, under 1024 tablet). */
    viewport: z.enum(heatmapViewports, { error: `must be one of ${heatmapViewports.join(', ')}` }).optional(),
    /** Type `heatmap_click`: the third or later click on the element within a second. */
    rage_click: z.boolean({ error: 'must be a boolean' }).optional(),
    /** Type `heatmap_click`: no navigation, DOM change or URL change within a second after it. */
    dead_click: z.boolean({ error: 'must be a boolean' }).optional(),
    /**
     * A UUID the client makes per event and sends on every attempt: a repeat within 24 hours is
     * acknowledged and stored once (idempotent retries).
     */
    event_id: z.uuid('must be a UUID').optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'custom_event' && !body.event_name?.trim()) {
      ctx.addIssue({ code: 'custom', message: 'custom_event requires event_name' })
    }
    if (body.type === 'heatmap_click') {
      for (const field of ['selector', 'click_x', 'click_y'] as const) {
        if (body[field] === undefined || body[field] === '')
          ctx.addIssue({ code: 'custom', path: [field], message: `heatmap_click requires ${field}` })
      }
    }
    if (
      body.properties !== undefined &&
      body.type !== 'error' &&
      body.properties.length > MAX_PROPERTIES_LENGTH_NOT_ERROR
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['properties'],
        message: `must be at most ${MAX_PROPERTIES_LENGTH_NOT_ERROR} characters`,
      })
    }
  })

/** A parsed body (`type` defaulted). */
export type TrackPayload = z.infer<typeof trackPayloadSchema>
/** A body as a client sends it. */
export type TrackRequest = z.input<typeof trackPayloadSchema>

/** Parse a properties string into a plain object; null when it is not valid JSON or not an object. */
export function parsePropertiesObject(properties: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(properties)
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}
