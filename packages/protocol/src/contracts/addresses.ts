/**
 * Where each endpoint is: its name, method and path, free of zod so that browser code can import
 * them (`@pathlight/protocol/addresses`) without the schemas. Each contract module builds its
 * contracts from these (`endpoint({...address, ...})`) and registers them by name in
 * `EndpointContracts`, through which a client call on an address is typed by its contract.
 */
import type { Method } from '../contract.js'

export { pathOf } from '../contract.js'

/**
 * The contract of each endpoint by its name: filled by the contract modules (`declare module`), read
 * by `ContractAt` to type a call from an address alone.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each contract module
export interface EndpointContracts {}

/** An endpoint's address: the name its contract is registered under, its method and its path. */
export interface Address {
  name: keyof EndpointContracts & string
  method: Method
  path: string
}

/** The contract at an address. */
export type ContractAt<A extends Address> = EndpointContracts[A['name']]

const address = <const N extends string, const M extends Method, const P extends string>(
  name: N,
  method: M,
  path: P,
) => ({ name, method, path })

/** The goals of a site (`contracts/goals.ts`). */
export const listGoals = address('listGoals', 'GET', '/api/sites/:siteId/goals')
export const goalSessions = address('goalSessions', 'GET', '/api/sites/:siteId/goals/:goalId/sessions')
export const createGoal = address('createGoal', 'POST', '/api/sites/:siteId/goals')
export const updateGoal = address('updateGoal', 'PUT', '/api/sites/:siteId/goals/:goalId')
export const deleteGoal = address('deleteGoal', 'DELETE', '/api/sites/:siteId/goals/:goalId')
/** The custom properties of a site (`contracts/properties.ts`). */
export const listPropertyKeys = address('listPropertyKeys', 'GET', '/api/sites/:siteId/properties')
export const propertyBreakdown = address(
  'propertyBreakdown',
  'GET',
  '/api/sites/:siteId/breakdown/properties',
)
export const v1ListPropertyKeys = address('v1ListPropertyKeys', 'GET', '/api/v1/sites/:siteId/properties')
export const v1PropertyBreakdown = address(
  'v1PropertyBreakdown',
  'GET',
  '/api/v1/sites/:siteId/breakdown/properties',
)
/** The dashboard's reports of a site (`contracts/reports.ts`). */
export const reportSummary = address('reportSummary', 'GET', '/api/sites/:siteId/summary')
export const reportStats = address('reportStats', 'GET', '/api/sites/:siteId/stats')
export const reportSeries = address('reportSeries', 'GET', '/api/sites/:siteId/series')
export const reportBreakdown = address('reportBreakdown', 'GET', '/api/sites/:siteId/breakdown/:name')
export const reportSessions = address('reportSessions', 'GET', '/api/sites/:siteId/sessions')
export const reportSessionEvents = address(
  'reportSessionEvents',
  'GET',
  '/api/sites/:siteId/sessions/:sessionId/events',
)
export const reportEvents = address('reportEvents', 'GET', '/api/sites/:siteId/events')
export const reportEventNames = address('reportEventNames', 'GET', '/api/sites/:siteId/event-names')
export const reportWebVitals = address('reportWebVitals', 'GET', '/api/sites/:siteId/web-vitals')
export const reportPageStats = address('reportPageStats', 'GET', '/api/sites/:siteId/page-stats')
export const reportLive = address('reportLive', 'GET', '/api/sites/:siteId/live')
export const reportEngagement = address('reportEngagement', 'GET', '/api/sites/:siteId/engagement')
export const reportBatch = address('reportBatch', 'POST', '/api/sites/:siteId/reports')
/** The v1 reports of a site (`contracts/v1-reports.ts`). */
export const v1Stats = address('v1Stats', 'GET', '/api/v1/sites/:siteId/stats')
export const v1Engagement = address('v1Engagement', 'GET', '/api/v1/sites/:siteId/engagement')
/** Identified users (`contracts/users.ts`). */
export const v1Users = address('v1Users', 'GET', '/api/v1/sites/:siteId/users')
export const v1User = address('v1User', 'GET', '/api/v1/sites/:siteId/users/:userId')
export const listUsers = address('listUsers', 'GET', '/api/sites/:siteId/users')
export const getUser = address('getUser', 'GET', '/api/sites/:siteId/users/:userId')
export const v1Pages = address('v1Pages', 'GET', '/api/v1/sites/:siteId/pages')
export const v1Sessions = address('v1Sessions', 'GET', '/api/v1/sites/:siteId/sessions')
export const v1EventNames = address('v1EventNames', 'GET', '/api/v1/sites/:siteId/events/names')
export const v1Revenue = address('v1Revenue', 'GET', '/api/v1/sites/:siteId/revenue')
export const v1Funnels = address('v1Funnels', 'GET', '/api/v1/sites/:siteId/funnels')
export const v1Experiments = address('v1Experiments', 'GET', '/api/v1/sites/:siteId/experiments')
/** Retention and journeys (`contracts/behaviour.ts`). */
export const retention = address('retention', 'GET', '/api/sites/:siteId/retention')
export const v1Retention = address('v1Retention', 'GET', '/api/v1/sites/:siteId/retention')
export const journeys = address('journeys', 'GET', '/api/sites/:siteId/journeys')
/** The v1 sites and events (`contracts/v1-reports.ts`). */
export const v1Sites = address('v1Sites', 'GET', '/api/v1/sites')
export const v1Events = address('v1Events', 'GET', '/api/v1/sites/:siteId/events')

/** The Query API (`contracts/query-api.ts`). */
export const queryApi = address('queryApi', 'POST', '/api/v2/query')
/** The saved segments of a site (`contracts/segments.ts`). */
export const listSegments = address('listSegments', 'GET', '/api/sites/:siteId/segments')
export const createSegment = address('createSegment', 'POST', '/api/sites/:siteId/segments')
export const updateSegment = address('updateSegment', 'PATCH', '/api/sites/:siteId/segments/:segmentId')
export const deleteSegment = address('deleteSegment', 'DELETE', '/api/sites/:siteId/segments/:segmentId')
/** The alert rules of a site (`contracts/alerts.ts`). */
export const createAlert = address('createAlert', 'POST', '/api/sites/:siteId/alerts')
export const listAlerts = address('listAlerts', 'GET', '/api/sites/:siteId/alerts')
export const getAlert = address('getAlert', 'GET', '/api/sites/:siteId/alerts/:id')
export const updateAlert = address('updateAlert', 'PATCH', '/api/sites/:siteId/alerts/:id')
export const deleteAlert = address('deleteAlert', 'DELETE', '/api/sites/:siteId/alerts/:id')
/** Invitations to an organization, and leaving one (`contracts/invitations.ts`). */
export const createInvitation = address(
  'createInvitation',
  'POST',
  '/api/organizations/:organizationId/invitations',
)
export const listInvitations = address(
  'listInvitations',
  'GET',
  '/api/organizations/:organizationId/invitations',
)
export const revokeInvitation = address(
  'revokeInvitation',
  'DELETE',
  '/api/organizations/:organizationId/invitations/:invitationId',
)
export const getInvitation = address('getInvitation', 'GET', '/api/invitations/:token')
export const acceptInvitation = address('acceptInvitation', 'POST', '/api/invitations/:token/accept')
export const declineInvitation = address('declineInvitation', 'POST', '/api/invitations/:token/decline')
export const leaveOrganization = address(
  'leaveOrganization',
  'DELETE',
  '/api/organizations/:organizationId/members/me',
)
/** An organization's single sign-on settings (`contracts/sso.ts`). */
export const getSsoSettings = address('getSsoSettings', 'GET', '/api/organizations/:organizationId/sso')
export const updateSsoSettings = address('updateSsoSettings', 'PUT', '/api/organizations/:organizationId/sso')
/** An organization's own identity provider and the e-mail domains it owns (`contracts/sso.ts`). */
export const getSsoProvider = address(
  'getSsoProvider',
  'GET',
  '/api/organizations/:organizationId/sso/provider',
)
export const updateSsoProvider = address(
  'updateSsoProvider',
  'PUT',
  '/api/organizations/:organizationId/sso/provider',
)
export const deleteSsoProvider = address(
  'deleteSsoProvider',
  'DELETE',
  '/api/organizations/:organizationId/sso/provider',
)
/** Organizations, their sites and members (`contracts/organizations.ts`). */
export const listOrganizations = address('listOrganizations', 'GET', '/api/organizations')
export const createOrganization = address('createOrganization', 'POST', '/api/organizations')
export const renameOrganization = address('renameOrganization', 'PATCH', '/api/organizations/:organizationId')
export const createOrganizationSite = address(
  'createOrganizationSite',
  'POST',
  '/api/organizations/:organizationId/sites',
)
export const listOrganizationSites = address(
  'listOrganizationSites',
  'GET',
  '/api/organizations/:organizationId/sites',
)
export const listMembers = address('listMembers', 'GET', '/api/organizations/:organizationId/members')
export const addMember = address('addMember', 'POST', '/api/organizations/:organizationId/members')
export const changeMemberRole = address(
  'changeMemberRole',
  'PATCH',
  '/api/organizations/:organizationId/members/:userId',
)
export const removeMember = address(
  'removeMember',
  'DELETE',
  '/api/organizations/:organizationId/members/:userId',
)
export const organizationAuditLog = address(
  'organizationAuditLog',
  'GET',
  '/api/organizations/:organizationId/audit-log',
)
/** The tracking script and a site's public switches (`contracts/tracking-script.ts`). */
export const coreScript = address('coreScript', 'GET', '/api/script.js')
export const vitalsScript = address('vitalsScript', 'GET', '/api/script-vitals.js')
export const engagementScript = address('engagementScript', 'GET', '/api/script-engagement.js')
export const heatmapScript = address('heatmapScript', 'GET', '/api/script-heatmap.js')
export const replayScript = address('replayScript', 'GET', '/api/script-replay.js')
export const trackerConfig = address('trackerConfig', 'GET', '/api/sites/:siteId/tracker-config')
/** Where the tracking script and servers send events and recordings (`contracts/tracking.ts`). */
export const track = address('track', 'POST', '/api/track')
export const trackPreflight = address('trackPreflight', 'OPTIONS', '/api/track')
export const recordReplay = address('recordReplay', 'POST', '/api/replay')
export const replayPreflight = address('replayPreflight', 'OPTIONS', '/api/replay')
/** What Rybbit's web SDK calls besides `/api/track` (`contracts/rybbit.ts`). */
export const rybbitTrackingConfig = address(
  'rybbitTrackingConfig',
  'GET',
  '/api/site/tracking-config/:siteId',
)
export const identify = address('identify', 'POST', '/api/identify')
export const identifyPreflight = address('identifyPreflight', 'OPTIONS', '/api/identify')
export const rybbitReplay = address('rybbitReplay', 'POST', '/api/session-replay/record/:siteId')
export const rybbitReplayPreflight = address(
  'rybbitReplayPreflight',
  'OPTIONS',
  '/api/session-replay/record/:siteId',
)
/** A site's history out and in (`contracts/transfer.ts`). */
export const exportSite = address('exportSite', 'GET', '/api/sites/:siteId/export')
export const importSite = address('importSite', 'POST', '/api/sites/:siteId/import')
export const removeImported = address('removeImported', 'DELETE', '/api/sites/:siteId/import')
/** Crawler traffic (`contracts/crawlers.ts`): access logs in, the crawler reports out. */
export const ingestSiteLogs = address('ingestSiteLogs', 'POST', '/api/sites/:siteId/logs')
export const siteCrawlers = address('siteCrawlers', 'GET', '/api/sites/:siteId/crawlers')
export const v1Crawlers = address('v1Crawlers', 'GET', '/api/v1/sites/:siteId/crawlers')
/** The API reference (`contracts/reference.ts`). */
export const openApiDocument = address('openApiDocument', 'GET', '/api/openapi.json')
export const referencePage = address('referencePage', 'GET', '/api/docs')
/** The service's health (`contracts/health.ts`). */
export const health = address('health', 'GET', '/api/health')
/** Whether the instance has its owner yet (`contracts/instance.ts`). */
export const instanceSetup = address('instanceSetup', 'GET', '/api/instance')
/** The instance's outgoing mail, for its owner (`contracts/mail.ts`). */
export const listMail = address('listMail', 'GET', '/api/admin/mail')
export const retryMail = address('retryMail', 'POST', '/api/admin/mail/:mailId/retry')
/** Whether the instance sends e-mail, for anyone (the sign-in pages ask before offering a mailed link). */
export const mailStatus = address('mailStatus', 'GET', '/api/mail/status')
/** The e-mail reports of a site, and the links in their mails (`contracts/email-reports.ts`). */
export const createEmailReport = address('createEmailReport', 'POST', '/api/sites/:siteId/email-reports')
export const listEmailReports = address('listEmailReports', 'GET', '/api/sites/:siteId/email-reports')
export const updateEmailReport = address('updateEmailReport', 'PATCH', '/api/sites/:siteId/email-reports/:id')
export const deleteEmailReport = address(
  'deleteEmailReport',
  'DELETE',
  '/api/sites/:siteId/email-reports/:id',
)
export const sendEmailReport = address('sendEmailReport', 'POST', '/api/sites/:siteId/email-reports/:id/send')
export const emailReportSubscription = address(
  'emailReportSubscription',
  'GET',
  '/api/email-reports/subscriptions/:token',
)
export const confirmEmailReport = address(
  'confirmEmailReport',
  'POST',
  '/api/email-reports/subscriptions/:token/confirm',
)
export const unsubscribeEmailReport = address(
  'unsubscribeEmailReport',
  'POST',
  '/api/email-reports/subscriptions/:token/unsubscribe',
)
/** The links in alert mails (`contracts/alerts.ts`). */
export const alertSubscription = address('alertSubscription', 'GET', '/api/alerts/subscriptions/:token')
export const confirmAlertSubscription = address(
  'confirmAlertSubscription',
  'POST',
  '/api/alerts/subscriptions/:token/confirm',
)
export const unsubscribeAlert = address(
  'unsubscribeAlert',
  'POST',
  '/api/alerts/subscriptions/:token/unsubscribe',
)
/** The webhooks of a site and their delivery log (`contracts/webhooks.ts`). */
export const createWebhook = address('createWebhook', 'POST', '/api/sites/:siteId/webhooks')
export const listWebhooks = address('listWebhooks', 'GET', '/api/sites/:siteId/webhooks')
export const getWebhook = address('getWebhook', 'GET', '/api/sites/:siteId/webhooks/:id')
export const updateWebhook = address('updateWebhook', 'PATCH', '/api/sites/:siteId/webhooks/:id')
export const rotateWebhookSecret = address(
  'rotateWebhookSecret',
  'POST',
  '/api/sites/:siteId/webhooks/:id/rotate-secret',
)
export const deleteWebhook = address('deleteWebhook', 'DELETE', '/api/sites/:siteId/webhooks/:id')
export const webhookDeliveries = address(
  'webhookDeliveries',
  'GET',
  '/api/sites/:siteId/webhooks/:id/deliveries',
)
export const redeliver = address(
  'redeliver',
  'POST',
  '/api/sites/:siteId/webhooks/:id/deliveries/:deliveryId/redeliver',
)
/** The annotations of a site (`contracts/annotations.ts`). */
export const listAnnotations = address('listAnnotations', 'GET', '/api/sites/:siteId/annotations')
export const createAnnotation = address('createAnnotation', 'POST', '/api/sites/:siteId/annotations')
export const updateAnnotation = address('updateAnnotation', 'PATCH', '/api/sites/:siteId/annotations/:id')
export const deleteAnnotation = address('deleteAnnotation', 'DELETE', '/api/sites/:siteId/annotations/:id')
export const v1ListAnnotations = address('v1ListAnnotations', 'GET', '/api/v1/sites/:siteId/annotations')
/** One site, for the members of its organization (`contracts/sites.ts`). */
export const getSite = address('getSite', 'GET', '/api/sites/:siteId')
export const updateSite = address('updateSite', 'PATCH', '/api/sites/:siteId')
export const deleteSite = address('deleteSite', 'DELETE', '/api/sites/:siteId')
export const updateSiteConfig = address('updateSiteConfig', 'PUT', '/api/sites/:siteId/config')
export const excludedIps = address('excludedIps', 'GET', '/api/sites/:siteId/excluded-ips')
export const excludedCountries = address('excludedCountries', 'GET', '/api/sites/:siteId/excluded-countries')
export const getPrivateLink = address('getPrivateLink', 'GET', '/api/sites/:siteId/private-link-config')
export const changePrivateLink = address(
  'changePrivateLink',
  'POST',
  '/api/sites/:siteId/private-link-config',
)
export const siteAuditLog = address('siteAuditLog', 'GET', '/api/sites/:siteId/audit-log')
export const siteHasEvents = address('siteHasEvents', 'GET', '/api/sites/:siteId/has-events')
/** The signed-in user's API keys, sessions and password (`contracts/account.ts`). */
export const createApiKey = address('createApiKey', 'POST', '/api/user/api-keys')
export const listApiKeys = address('listApiKeys', 'GET', '/api/user/api-keys')
export const deleteApiKey = address('deleteApiKey', 'DELETE', '/api/user/api-keys/:id')
export const listOwnSessions = address('listOwnSessions', 'GET', '/api/user/sessions')
export const revokeOwnSession = address('revokeOwnSession', 'DELETE', '/api/user/sessions/:id')
export const changePassword = address('changePassword', 'PUT', '/api/user/password')
/** The A/B experiments of a site (`contracts/experiments.ts`). */
export const createExperiment = address('createExperiment', 'POST', '/api/sites/:siteId/experiments')
export const listExperiments = address('listExperiments', 'GET', '/api/sites/:siteId/experiments')
export const getExperiment = address('getExperiment', 'GET', '/api/sites/:siteId/experiments/:experimentId')
export const updateExperiment = address(
  'updateExperiment',
  'PATCH',
  '/api/sites/:siteId/experiments/:experimentId',
)
export const deleteExperiment = address(
  'deleteExperiment',
  'DELETE',
  '/api/sites/:siteId/experiments/:experimentId',
)
/** The funnels of a site: ad-hoc figures and saved funnels (`contracts/funnels.ts`). */
export const funnelFigures = address('funnelFigures', 'POST', '/api/sites/:siteId/funnels/query')
export const funnelSessions = address('funnelSessions', 'POST', '/api/sites/:siteId/funnels/sessions')
export const listFunnels = address('listFunnels', 'GET', '/api/sites/:siteId/funnels')
export const createFunnel = address('createFunnel', 'POST', '/api/sites/:siteId/funnels')
export const getFunnel = address('getFunnel', 'GET', '/api/sites/:siteId/funnels/:funnelId')
export const savedFunnelSessions = address(
  'savedFunnelSessions',
  'GET',
  '/api/sites/:siteId/funnels/:funnelId/sessions',
)
export const updateFunnel = address('updateFunnel', 'PATCH', '/api/sites/:siteId/funnels/:funnelId')
export const deleteFunnel = address('deleteFunnel', 'DELETE', '/api/sites/:siteId/funnels/:funnelId')
/** The JavaScript error reads of a site (`contracts/errors.ts`). */
export const errorNames = address('errorNames', 'GET', '/api/sites/:siteId/error-names')
export const errorEvents = address('errorEvents', 'GET', '/api/sites/:siteId/error-events')
export const errorBuckets = address('errorBuckets', 'GET', '/api/sites/:siteId/error-bucketed')
/** A session's recording (`contracts/replay.ts`). */
export const getSessionReplay = address(
  'getSessionReplay',
  'GET',
  '/api/sites/:siteId/sessions/:sessionId/replay',
)
export const deleteSessionReplay = address(
  'deleteSessionReplay',
  'DELETE',
  '/api/sites/:siteId/sessions/:sessionId/replay',
)
/** Data-subject requests about one visitor of a site (`contracts/privacy.ts`). */
export const eraseUser = address('eraseUser', 'DELETE', '/api/sites/:siteId/users/:userId')
export const eraseVisitor = address('eraseVisitor', 'DELETE', '/api/sites/:siteId/visitors/:visitorId')
export const exportUser = address('exportUser', 'GET', '/api/sites/:siteId/users/:userId/export')
export const exportVisitor = address('exportVisitor', 'GET', '/api/sites/:siteId/visitors/:visitorId/export')
/** The operator's endpoints (`contracts/admin.ts`). */
export const ingestStats = address('ingestStats', 'GET', '/api/admin/ingest-stats')
export const setSiteLimits = address('setSiteLimits', 'PUT', '/api/admin/sites/:siteId/limits')
export const eventsCount = address('eventsCount', 'GET', '/api/admin/events-count')

/** Heatmaps (`contracts/heatmaps.ts`): a page's clicks by element, its signed viewing link, the overlay's read. */
export const siteHeatmap = address('siteHeatmap', 'GET', '/api/sites/:siteId/heatmap')
export const v1Heatmap = address('v1Heatmap', 'GET', '/api/v1/sites/:siteId/heatmap')
export const heatmapLink = address('heatmapLink', 'GET', '/api/sites/:siteId/heatmap-link')
export const heatmapView = address('heatmapView', 'GET', '/api/heatmap-view')
