/**
 * The shapes of the web vitals reports (percentiles and rating bands per metric, over the range or per
 * value of a dimension) and of the band limits, registered as OpenAPI components.
 */
import { z } from 'zod'
import { webVitalNames } from './enums.js'
import { component, doc } from './openapi-registry.js'
import { count, vital } from './schema-fields.js'

const webVitalStats = component(
  'WebVitalStats',
  z.object({
    samples: count('Performance events carrying the metric'),
    p50: vital('Median, in the metric unit'),
    p75: vital('75th percentile'),
    p90: vital('90th percentile'),
    good: doc(z.number().min(0).max(1), 'Share of samples rated good'),
    needs_improvement: z.number().min(0).max(1),
    poor: z.number().min(0).max(1),
    rating: doc(z.enum(['good', 'needs_improvement', 'poor']), 'The band of p75').nullable(),
  }),
  "One web vital's figures.",
)

const vitalsFields = Object.fromEntries(webVitalNames.map((name) => [name, webVitalStats])) as Record<
  (typeof webVitalNames)[number],
  typeof webVitalStats
>

export const webVitals = component('WebVitals', z.object(vitalsFields), 'Every web vital over the range.')

export const webVitalsRow = component(
  'WebVitalsRow',
  z.object({ value: z.string(), events: count('Performance events with this value'), ...vitalsFields }),
  'The web vitals of one value of a dimension.',
)

const threshold = z.object({
  good: z.number(),
  poor: z.number(),
  unit: z.enum(['ms', '']),
  decimals: z.int().min(0),
})

export const webVitalsThresholds = doc(
  z.object(
    Object.fromEntries(webVitalNames.map((name) => [name, threshold])) as Record<
      (typeof webVitalNames)[number],
      typeof threshold
    >,
  ),
  'Band limits per metric: good up to `good`, poor above `poor`',
)
