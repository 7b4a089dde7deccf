/**
 * The arguments most tools share, as zod shapes (the MCP SDK turns them into each tool's JSON schema):
 * the site, the date range and time zone, filters, a saved segment, and paging. Their descriptions say
 * the units and ranges; the route each tool calls checks them again and names the field it refuses.
 */
import {
  compareModes,
  filterParameters,
  MAX_FILTER_VALUES,
  MAX_FILTERS,
  MAX_PAGE,
  propertyFilterTypes,
} from '@pathlight/protocol'
import { z } from 'zod'

/** The most rows a tool answers per page, whatever `limit` asks: answers stay small for a model. */
export const MAX_TOOL_LIMIT = 100
/** Rows per page when `limit` is not given. */
export const DEFAULT_TOOL_LIMIT = 25

const day = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${what} must be a date YYYY-MM-DD`)
    .describe(`${what}: a calendar day YYYY-MM-DD in time_zone`)

/** `site_id`: which site; list_sites lists those the caller may read. */
export const siteArg = {
  site_id: z
    .number()
    .int()
    .min(1)
    .describe('The site id, an integer from list_sites (a site you cannot read answers "Site not found")'),
}

/** The date range, time zone, filters and segment of every analytics read. */
export const rangeArgs = {
  ...siteArg,
  start_date: day('First day of the range').optional(),
  end_date: day('Last day of the range, included; default today').optional(),
  time_zone: z
    .string()
    .max(64)
    .describe('IANA time zone name, e.g. Europe/Berlin; default UTC. Days and hours are counted in it')
    .optional(),
  filters: z
    .array(
      z.object({
        parameter: z
          .string()
          .describe(`One of ${filterParameters.join(', ')}, or properties.<key> for a custom property`),
        type: z.enum(propertyFilterTypes).describe('How the value compares'),
        value: z.array(z.string()).max(MAX_FILTER_VALUES).describe('Values; any one matches (OR)'),
      }),
    )
    .max(MAX_FILTERS)
    .describe('Filters, combined with AND. Example: [{"parameter":"country","type":"equals","value":["US"]}]')
    .optional(),
  segment: z.number().int().min(1).describe('A saved segment id (list_segments) to apply').optional(),
}

/** Paging of a list: `page` from 1, `limit` rows per page (1-100, default 25). */
export const pageArgs = {
  page: z.number().int().min(1).max(MAX_PAGE).describe('1-based page; default 1').optional(),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOOL_LIMIT)
    .describe(`Rows per page, 1-${MAX_TOOL_LIMIT}; default ${DEFAULT_TOOL_LIMIT}`)
    .optional(),
}

/** The comparison of KPIs: what the figures are compared with. */
export const compareArgs = {
  compare: z
    .enum(compareModes)
    .describe(
      'Compare with previous_period (default: as many days just before), previous_year, custom ' +
        '(compare_start_date..compare_end_date) or none',
    )
    .optional(),
  compare_start_date: day('First day of the compared range (compare=custom)').optional(),
  compare_end_date: day('Last day of the compared range (compare=custom)').optional(),
}

type RangeInput = { [K in keyof typeof rangeArgs]?: unknown } & { page?: number; limit?: number }

/** The query string fields of the range, filters, segment and paging (the routes' own names). */
export function rangeQuery(args: RangeInput, paged = true): Record<string, unknown> {
  return {
    start_date: args.start_date,
    end_date: args.end_date,
    time_zone: args.time_zone,
    filters: args.filters,
    segment: args.segment,
    ...(paged ? { page: args.page, limit: args.limit ?? DEFAULT_TOOL_LIMIT } : {}),
  }
}
