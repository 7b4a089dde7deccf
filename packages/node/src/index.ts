/**
 * `@pathlight/node`: the server-side client for Pathlight analytics. Track pageviews and custom events
 * from Node.js (18+) with an API key, read the site's stats (with comparisons), annotations and custom properties, and
 * verify webhook signatures. No runtime dependencies.
 */
export { Pathlight } from './client.js'
export {
  PathlightAuthError,
  PathlightError,
  type PathlightErrorInit,
  type PathlightErrorKind,
  PathlightInvalidPayloadError,
  PathlightNetworkError,
  PathlightRateLimitError,
  type PayloadErrorDetails,
  type RateLimitInfo,
} from './errors.js'
export type {
  QueryAnswer,
  QueryDateRange,
  QueryFilter,
  QueryOperator,
  QueryRequest,
  QueryRow,
} from './query-types.js'
export type {
  Annotation,
  AnnotationsAnswer,
  CompareMode,
  PageMeta,
  PropertiesAnswer,
  PropertiesOptions,
  PropertyBreakdownAnswer,
  PropertyBreakdownOptions,
  PropertyKeyRow,
  PropertyValueRow,
  ReportFilter,
  ReportRange,
  SeriesBucket,
  SeriesPoint,
  StatsAnswer,
  StatsOptions,
  Totals,
} from './report-types.js'
export type {
  EventProperties,
  ObjectOnly,
  PathlightOptions,
  PropertiesOf,
  PropertyScalar,
  PropertyValue,
  TrackPayload,
  TrackResponse,
} from './types.js'
export { verifyWebhookSignature } from './webhook.js'
