/**
 * The read tools over a site's saved things and behaviour: sites, goals, funnels, retention,
 * journeys, errors, annotations, segments. Each calls the API route of the same report.
 */
import { retentionPeriods } from '@pathlight/protocol'
import * as at from '@pathlight/protocol/addresses'
import { z } from 'zod'
import { defineTool } from '../mcp-tool.js'
import type { RouteInput } from '../tool-call.js'
import { pageArgs, rangeArgs, rangeQuery, siteArg } from './tool-args.js'

const countOf = (body: Record<string, unknown>) => (Array.isArray(body.data) ? body.data.length : 0)

export const listSites = defineTool({
  name: 'list_sites',
  title: 'My sites',
  description:
    'The sites you may read, across your organizations: site_id (pass it to every other tool), domain, ' +
    'name, time zone, organization. Start here.',
  input: {},
  route: at.v1Sites,
  request: () => ({}),
  summarize: (body) =>
    `${countOf(body)} sites: ${(body.data as { siteId: number; domain: string }[])
      .slice(0, 20)
      .map((site) => `${site.siteId} ${site.domain}`)
      .join(', ')}.`,
})

export const listGoals = defineTool({
  name: 'list_goals',
  title: 'Goals and conversions',
  description:
    "A site's goals with their conversions over a date range: visitors and sessions that reached each " +
    'goal and the conversion rate (0-1, of visitors). Paged: `page`, `limit` 1-100 (default 25).',
  visitorData: true,
  input: { ...rangeArgs, ...pageArgs },
  route: at.listGoals,
  request: (args) => ({ params: { siteId: args.site_id }, query: rangeQuery(args) }),
  summarize: (body) => `${countOf(body)} goals on this page.`,
})

const funnelStep = z.union([
  z.object({
    type: z.literal('path'),
    name: z.string().min(1).max(100),
    pathPattern: z.string().describe('A pathname starting with /; * only at the end (prefix match)'),
  }),
  z.object({
    type: z.literal('event'),
    name: z.string().min(1).max(100),
    eventName: z.string().describe('The custom event name'),
    eventPropertyKey: z.string().optional(),
    eventPropertyValue: z.string().optional(),
  }),
])

export const getFunnel = defineTool({
  name: 'get_funnel',
  title: 'Funnel',
  description:
    'How many sessions reached each step of a funnel over a date range, in order, with the conversion ' +
    'from the first step and the drop-off per step (rates 0-1). Give either `funnel_id` (a saved funnel) ' +
    'or `steps` (2-10 steps, each a path pattern or a custom event).',
  visitorData: true,
  input: {
    ...rangeArgs,
    funnel_id: z.number().int().min(1).describe('A saved funnel id').optional(),
    steps: z.array(funnelStep).min(2).max(10).describe('The steps in order (when no funnel_id)').optional(),
  },
  route: at.funnelFigures,
  request: (args): RouteInput => {
    const query = rangeQuery(args, false)
    if (args.funnel_id === undefined) {
      return { params: { siteId: args.site_id }, query, body: { steps: args.steps ?? [] } }
    }
    return { address: at.getFunnel, params: { siteId: args.site_id, funnelId: args.funnel_id }, query }
  },
  summarize: (body) => {
    const steps =
      (body.data as { steps?: { name: string; visitors?: number; sessions?: number }[] })?.steps ?? []
    return `Funnel of ${steps.length} steps: ${steps.map((s) => `${s.name} ${s.sessions ?? s.visitors ?? '?'}`).join(' > ')}.`
  },
})

export const getRetention = defineTool({
  name: 'get_retention',
  title: 'Retention cohorts',
  description:
    'Retention: one cohort per day, week (Monday-Sunday) or month of the range (default week), each with ' +
    'its visitors and retained[k], the visitors of the cohort seen again k periods later. At most 256 periods.',
  input: {
    ...rangeArgs,
    period: z.enum(retentionPeriods).describe('Cohort period; default week').optional(),
  },
  route: at.retention,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: { ...rangeQuery(args, false), period: args.period },
  }),
  summarize: (body) => `${countOf(body)} cohorts.`,
})

export const getJourneys = defineTool({
  name: 'get_journeys',
  title: 'Journeys',
  description:
    'The most common sequences of pages visitors went through in a session, most sessions first, ' +
    'optionally starting or ending at a pathname. `steps` 2-6 pages per journey (default 3), `limit` ' +
    '1-200 journeys (default 25).',
  visitorData: true,
  input: {
    ...rangeArgs,
    steps: z.number().int().min(2).max(6).describe('Most pages per journey, 2-6').optional(),
    start_path: z.string().max(2048).describe('Only journeys starting at this pathname').optional(),
    end_path: z.string().max(2048).describe('Only journeys ending at this pathname').optional(),
    limit: z.number().int().min(1).max(200).describe('Most journeys, 1-200; default 25').optional(),
  },
  route: at.journeys,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: {
      ...rangeQuery(args, false),
      steps: args.steps,
      start_path: args.start_path,
      end_path: args.end_path,
      limit: args.limit ?? 25,
    },
  }),
  summarize: (body) => `${countOf(body)} journeys.`,
})

export const listErrors = defineTool({
  name: 'list_errors',
  title: 'JavaScript errors',
  description:
    'JavaScript errors tracked on a site over a date range, by message, most frequent first: ' +
    'occurrences, visitors affected, last seen. Paged: `page`, `limit` 1-100 (default 25). ' +
    'Pass a message to get_error for its occurrences.',
  visitorData: true,
  input: { ...rangeArgs, ...pageArgs },
  route: at.errorNames,
  request: (args) => ({ params: { siteId: args.site_id }, query: rangeQuery(args) }),
  summarize: (body) => `${countOf(body)} error messages on this page.`,
})

export const getError = defineTool({
  name: 'get_error',
  title: 'One error',
  description:
    "One error message's occurrences, newest first: time, pathname, browser, stack. Paged: `page`, " +
    '`limit` 1-100 (default 25).',
  visitorData: true,
  input: {
    ...rangeArgs,
    ...pageArgs,
    message: z.string().min(1).max(2048).describe('The exact error message (from list_errors)'),
  },
  route: at.errorEvents,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: { ...rangeQuery(args), errorMessage: args.message },
  }),
  summarize: (body) => `${countOf(body)} occurrences on this page.`,
})

export const listAnnotations = defineTool({
  name: 'list_annotations',
  title: 'Annotations',
  description:
    "Notes on days of a site's chart (a launch, an outage), by day; both range ends optional (YYYY-MM-DD).",
  input: {
    ...siteArg,
    start_date: z.string().describe('First day listed, YYYY-MM-DD').optional(),
    end_date: z.string().describe('Last day listed, included').optional(),
  },
  route: at.listAnnotations,
  request: (args) => ({
    params: { siteId: args.site_id },
    query: { start_date: args.start_date, end_date: args.end_date },
  }),
  summarize: (body) => `${countOf(body)} annotations.`,
})

export const listSegments = defineTool({
  name: 'list_segments',
  title: 'Saved segments',
  description:
    "A site's saved segments (named filters): segment_id, name, filters, visibility. Pass an id as " +
    '`segment` to any analytics tool.',
  input: { ...siteArg },
  route: at.listSegments,
  request: (args) => ({ params: { siteId: args.site_id } }),
  summarize: (body) => `${countOf(body)} segments.`,
})
