/**
 * The write tools: annotate a day, save a segment, create a goal. Each needs the `mcp:write` scope,
 * and the route it calls needs the caller's admin or owner role in the site's organization (a shared
 * segment; a personal one any member may save). What they create shows in the dashboard at once.
 */
import { goalTypes, segmentVisibilities } from '@pathlight/protocol'
import * as at from '@pathlight/protocol/addresses'
import { z } from 'zod'
import { defineTool } from '../mcp-tool.js'
import { rangeArgs, siteArg } from './tool-args.js'

export const createAnnotation = defineTool({
  name: 'create_annotation',
  title: 'Annotate a day',
  description:
    "Write a note on one day of the site's chart (a launch, an outage). Needs mcp:write and the admin " +
    'or owner role. Answers the annotation with its id.',
  write: true,
  input: {
    ...siteArg,
    date: z.string().describe('The day, YYYY-MM-DD'),
    text: z.string().min(1).max(500).describe('The note, 1-500 characters'),
  },
  route: at.createAnnotation,
  request: (args) => ({ params: { siteId: args.site_id }, body: { date: args.date, text: args.text } }),
  summarize: (body) => `Annotation ${(body.data as { id: number }).id} written.`,
})

export const createSegment = defineTool({
  name: 'create_segment',
  title: 'Save a segment',
  description:
    'Save filters as a named segment of the site. visibility personal (default, yours only) or site ' +
    '(shared; needs the admin or owner role). Needs mcp:write. Answers the segment with its segmentId.',
  write: true,
  input: {
    ...siteArg,
    name: z.string().min(1).max(100).describe('The name, 1-100 characters'),
    filters: rangeArgs.filters
      .unwrap()
      .min(1)
      .describe('The filters to save (as the analytics tools take them)'),
    visibility: z.enum(segmentVisibilities).describe('personal (default) or site').optional(),
  },
  route: at.createSegment,
  request: (args) => ({
    params: { siteId: args.site_id },
    body: { name: args.name, filters: args.filters, visibility: args.visibility ?? 'personal' },
  }),
  summarize: (body) => `Segment ${(body.data as { segmentId: number }).segmentId} saved.`,
})

export const createGoal = defineTool({
  name: 'create_goal',
  title: 'Create a goal',
  description:
    'Create a conversion goal: goal_type path (config {pathPattern}: a pathname, * only at the end; with ' +
    'scrollDepth 1-100, met by scrolling such a page at least that far) or ' +
    'event (config {eventName, eventPropertyKey?, eventPropertyValue?}). Needs mcp:write and the admin ' +
    'or owner role. Answers the goal id.',
  write: true,
  input: {
    ...siteArg,
    name: z.string().min(1).max(100).describe('The name, 1-100 characters'),
    goal_type: z.enum(goalTypes).describe('path or event'),
    config: z
      .object({
        pathPattern: z.string().optional(),
        scrollDepth: z.number().optional().describe('A path goal: percent 1-100 of the page scrolled'),
        eventName: z.string().optional(),
        eventPropertyKey: z.string().optional(),
        eventPropertyValue: z.string().optional(),
      })
      .describe('{pathPattern} for a path goal, {eventName, ...} for an event goal'),
  },
  route: at.createGoal,
  request: (args) => ({
    params: { siteId: args.site_id },
    body: { name: args.name, goalType: args.goal_type, config: args.config },
  }),
  summarize: (body) => `Goal ${String(body.goalId)} created.`,
})
