/** Every endpoint contract, by surface. A surface converted to contracts adds its list here. */
import { accountEndpoints } from './account.js'
import { adminEndpoints } from './admin.js'
import { alertEndpoints } from './alerts.js'
import { annotationEndpoints } from './annotations.js'
import { behaviourEndpoints } from './behaviour.js'
import { crawlerEndpoints } from './crawlers.js'
import { emailReportEndpoints } from './email-reports.js'
import { errorEndpoints } from './errors.js'
import { experimentEndpoints } from './experiments.js'
import { funnelEndpoints } from './funnels.js'
import { goalEndpoints } from './goals.js'
import { healthEndpoints } from './health.js'
import { heatmapEndpoints } from './heatmaps.js'
import { instanceEndpoints } from './instance.js'
import { invitationEndpoints } from './invitations.js'
import { mailEndpoints } from './mail.js'
import { organizationEndpoints } from './organizations.js'
import { privacyEndpoints } from './privacy.js'
import { propertyEndpoints } from './properties.js'
import { queryApiEndpoints } from './query-api.js'
import { referenceEndpoints } from './reference.js'
import { replayEndpoints } from './replay.js'
import { reportBatchEndpoints } from './report-batch.js'
import { reportEndpoints } from './reports.js'
import { rybbitEndpoints } from './rybbit.js'
import { segmentEndpoints } from './segments.js'
import { siteEndpoints } from './sites.js'
import { ssoEndpoints } from './sso.js'
import { trackingEndpoints } from './tracking.js'
import { trackingScriptEndpoints } from './tracking-script.js'
import { transferEndpoints } from './transfer.js'
import { userEndpoints } from './users.js'
import { v1ReportEndpoints } from './v1-reports.js'
import { webhookEndpoints } from './webhooks.js'

export * from './account.js'
export type { Address, ContractAt, EndpointContracts } from './addresses.js'
export * from './admin.js'
export * from './alerts.js'
export * from './annotations.js'
export * from './behaviour.js'
export * from './crawlers.js'
export * from './email-reports.js'
export * from './errors.js'
export * from './experiments.js'
export * from './funnels.js'
export * from './goals.js'
export * from './health.js'
export * from './heatmaps.js'
export * from './instance.js'
export * from './invitations.js'
export * from './mail.js'
export * from './organizations.js'
export * from './privacy.js'
export * from './properties.js'
export * from './query-api.js'
export * from './reference.js'
export * from './replay.js'
export * from './report-batch.js'
export * from './report-registry.js'
export * from './reports.js'
export * from './rybbit.js'
export * from './segments.js'
export * from './sites.js'
export * from './sso.js'
export * from './tracking.js'
export * from './tracking-script.js'
export * from './transfer.js'
export * from './users.js'
export * from './v1-reports.js'
export * from './webhooks.js'

/** Every declared endpoint: each must have its route, and each route its contract (server test). */
export const endpoints = [
  ...goalEndpoints,
  ...propertyEndpoints,
  ...reportEndpoints,
  ...reportBatchEndpoints,
  ...v1ReportEndpoints,
  ...queryApiEndpoints,
  ...behaviourEndpoints,
  ...alertEndpoints,
  ...annotationEndpoints,
  ...emailReportEndpoints,
  ...webhookEndpoints,
  ...siteEndpoints,
  ...segmentEndpoints,
  ...invitationEndpoints,
  ...organizationEndpoints,
  ...trackingScriptEndpoints,
  ...healthEndpoints,
  ...instanceEndpoints,
  ...mailEndpoints,
  ...accountEndpoints,
  ...experimentEndpoints,
  ...funnelEndpoints,
  ...errorEndpoints,
  ...replayEndpoints,
  ...privacyEndpoints,
  ...adminEndpoints,
  ...trackingEndpoints,
  ...rybbitEndpoints,
  ...userEndpoints,
  ...transferEndpoints,
  ...crawlerEndpoints,
  ...referenceEndpoints,
  ...ssoEndpoints,
  ...heatmapEndpoints,
] as const
