/**
 * `@pathlight/protocol` against the server's own declarations: the enums the server still defines
 * itself equal the protocol's (the event types are not compared: `storage/events/event-row.ts`
 * re-exports the protocol's), and the request bodies clients build from the protocol's types are
 * accepted by the server's request schemas (checked by `tsc`; the `it` blocks only name them).
 */

import type { goalInput as createGoalBody, goalUpdate as updateGoalBody } from '@pathlight/protocol'
import {
  type AlertRuleInput,
  type ApiKeyInput,
  type ExperimentInput,
  type FilterParameter,
  filterParameters,
  type GoalInput,
  type Role as ProtocolRole,
  type ReportFilter,
  type WebhookInput,
} from '@pathlight/protocol'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { z } from 'zod'
import type { createAlertBody, updateAlertBody } from '../../alerts/alert-rules.js'
import type { createApiKeyBody } from '../../auth/api-keys.js'
import { eventFilterColumns, type Filter, sessionFilterColumns } from '../../query/filters.js'
import type { Role } from '../../storage/metadata/schema.js'
import type { createWebhookBody, updateWebhookBody } from '../../webhooks/webhooks.js'
import type { createExperimentBody, updateExperimentBody } from '../experiments.js'

describe('enums', () => {
  it('every filter parameter has a column, in the protocol’s order', () => {
    expect(Object.keys({ ...eventFilterColumns, ...sessionFilterColumns })).toEqual(filterParameters)
    expectTypeOf<Filter['parameter']>().toEqualTypeOf<FilterParameter | `properties.${string}`>()
  })

  it('roles are the stored ones', () => {
    expectTypeOf<Role>().toEqualTypeOf<ProtocolRole>()
  })
})

describe('request bodies built from protocol types', () => {
  it('are accepted by the request schemas', () => {
    expectTypeOf<ApiKeyInput>().toExtend<z.input<typeof createApiKeyBody>>()
    expectTypeOf<WebhookInput>().toExtend<z.input<typeof createWebhookBody>>()
    expectTypeOf<Partial<WebhookInput>>().toExtend<z.input<typeof updateWebhookBody>>()
    expectTypeOf<AlertRuleInput>().toExtend<z.input<typeof createAlertBody>>()
    expectTypeOf<AlertRuleInput>().toExtend<z.input<typeof updateAlertBody>>()
    expectTypeOf<ExperimentInput>().toExtend<z.input<typeof createExperimentBody>>()
    expectTypeOf<Partial<ExperimentInput>>().toExtend<z.input<typeof updateExperimentBody>>()
    expectTypeOf<GoalInput>().toExtend<z.input<typeof createGoalBody>>()
    expectTypeOf<GoalInput>().toExtend<z.input<typeof updateGoalBody>>()
    expectTypeOf<ReportFilter>().toExtend<Filter>()
  })
})
