/**
 * Pathlight's wire shapes: the response schemas (zod, registered for the OpenAPI document), their
 * inferred types, the body of the tracking endpoint, the enums they use and the documentation
 * registry, and the endpoint contracts (`contracts/`). Browser code imports types only from here, and values from `@pathlight/protocol/enums`,
 * which is free of zod.
 */
export * from './account-input.js'
export * from './admin-input.js'
export * from './alert-input.js'
export * from './analytics-query.js'
export * from './annotation-schemas.js'
export * from './contract.js'
export * from './contracts/index.js'
export * from './country-code.js'
export * from './email-report-input.js'
export * from './email-report-schemas.js'
export * from './enums.js'
export * from './error-query.js'
export * from './experiment-input.js'
export * from './funnel-input.js'
export * from './goal-input.js'
export * from './ip-entry.js'
export * from './nul-free.js'
export * from './openapi-registry.js'
export * from './replay-batch.js'
export * from './report-batch.js'
export * from './schemas.js'
export * from './segment-schemas.js'
export * from './site-config-input.js'
export * from './site-input.js'
export * from './track-payload.js'
export type * from './types.js'
export * from './webhook-input.js'
