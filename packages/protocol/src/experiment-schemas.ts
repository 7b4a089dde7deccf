/**
 * The shapes of a site's A/B experiments and of their results over a range (per variant: exposures,
 * conversions, uplift and its test against the control), registered as OpenAPI components.
 */
import { z } from 'zod'
import { experimentStatuses } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count, timestamp } from './schema-fields.js'

const experimentFields = {
  experimentId: z.int().min(1),
  siteId: z.int().min(1),
  key: doc(z.string(), 'Matched exactly against `properties.experiment` of exposure events'),
  name: z.string(),
  description: z.string().nullable(),
  variants: z.array(
    z.object({
      name: doc(z.string(), 'Matched exactly against `properties.variant`'),
      control: z.boolean(),
    }),
  ),
  goalId: doc(z.int().min(1), 'The goal measuring success; null once that goal was deleted').nullable(),
  status: z.enum(experimentStatuses),
  createdAt: timestamp(),
  updatedAt: timestamp(),
}

export const experiment = component('Experiment', z.object(experimentFields), 'An A/B experiment of a site.')

const nullableNumber = (description: string) => doc(z.number(), description).nullable()

export const variantResult = component(
  'VariantResult',
  z.object({
    name: z.string(),
    control: z.boolean(),
    exposedSessions: count('Sessions whose first exposure in the range was to this variant'),
    conversions: doc(
      z.int().min(0),
      'Exposed sessions that then completed the goal; null without a goal',
    ).nullable(),
    conversionRate: nullableNumber('conversions / exposedSessions, 0..1'),
    uplift: nullableNumber('(rate - control rate) / control rate; null for the control'),
    zScore: nullableNumber('Two-proportion z statistic against the control'),
    pValue: nullableNumber('Two-sided p-value of zScore'),
    ci95: doc(z.tuple([z.number(), z.number()]), '95 % interval of rate - control rate').nullable(),
  }),
  "One variant's figures over the range.",
)

export const experimentWithResults = component(
  'ExperimentWithResults',
  z.object({
    ...experimentFields,
    results: z.object({
      variants: z.array(variantResult),
      crossovers: count('Exposed sessions that saw two or more variants'),
      totalExposedSessions: count('Sum of exposedSessions'),
    }),
  }),
  'An experiment with its results over the range.',
)
