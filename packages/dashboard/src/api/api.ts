/**
 * One function per server route the dashboard uses, typed with the server's shapes (types.ts).
 * Path segments are URL-encoded; answers wrapped in `{success, data}` are unwrapped.
 */
import type {
  AddMemberInput,
  AlertRuleInput,
  ApiKeyInput,
  CreateSiteBody,
  ExperimentInput,
  PrivateLinkAction,
  Role,
  SiteConfig,
  SsoProviderBody,
  WebhookInput,
} from '@pathlight/protocol'
import * as endpoints from '@pathlight/protocol/addresses'
import { auth } from '../lib/auth'
import type { UsersQuery } from '../router/routes'
import { type Transport, transport } from './client'
import { createClient } from './contract-client'

type Data<T> = { data: T }

/** Better Auth's answer to `two-factor/enable`: the authenticator URI and the backup codes, shown once. */
export interface TwoFactorEnrolment {
  totpURI: string
  backupCodes: string[]
}

/** Build the API over a transport (tests pass a fake one). */
export function createApi(t: Transport) {
  const data = async <T>(promise: Promise<Data<T>>): Promise<T> => (await promise).data
  const call = createClient(t)

  return {
    // Authentication goes through Better Auth's client (`lib/auth-client.ts`).
    session: auth.session,
    /** Whether the instance has its owner yet (false: the first sign-up becomes it). */
    instanceSetup: () => data(call(endpoints.instanceSetup, {})),
    signIn: auth.signIn,
    enableTwoFactor: auth.enableTwoFactor as (password: string) => Promise<TwoFactorEnrolment>,
    verifyTotp: auth.verifyTotp,
    verifyBackupCode: auth.verifyBackupCode,
    disableTwoFactor: auth.disableTwoFactor,
    signUp: auth.signUp,
    signOut: auth.signOut,
    ssoConfig: auth.ssoConfig,
    signInWithSso: auth.signInWithSso,
    ssoProviderFor: auth.ssoProviderFor,
    requestPasswordReset: auth.requestPasswordReset,
    resetPassword: auth.resetPassword,

    organizations: () => data(call(endpoints.listOrganizations, {})),
    createOrganization: (name: string) => call(endpoints.createOrganization, { body: { name } }),
    renameOrganization: (organizationId: string, name: string) =>
      call(endpoints.renameOrganization, { params: { organizationId }, body: { name } }),
    ssoSettings: (organizationId: string) => call(endpoints.getSsoSettings, { params: { organizationId } }),
    updateSsoSettings: (organizationId: string, body: { ssoOnly: boolean }) =>
      call(endpoints.updateSsoSettings, { params: { organizationId }, body }),
    ssoProvider: (organizationId: string) => call(endpoints.getSsoProvider, { params: { organizationId } }),
    updateSsoProvider: (organizationId: string, body: SsoProviderBody) =>
      call(endpoints.updateSsoProvider, { params: { organizationId }, body }),
    deleteSsoProvider: (organizationId: string) =>
      call(endpoints.deleteSsoProvider, { params: { organizationId } }),
    sites: (organizationId: string) =>
      data(call(endpoints.listOrganizationSites, { params: { organizationId } })),
    createSite: (organizationId: string, input: CreateSiteBody) =>
      call(endpoints.createOrganizationSite, { params: { organizationId }, body: input }),

    members: (organizationId: string) => data(call(endpoints.listMembers, { params: { organizationId } })),
    addMember: (organizationId: string, input: AddMemberInput) =>
      data(call(endpoints.addMember, { params: { organizationId }, body: input })),
    changeRole: (organizationId: string, userId: string, role: Role) =>
      data(call(endpoints.changeMemberRole, { params: { organizationId, userId }, body: { role } })),
    removeMember: (organizationId: string, userId: string) =>
      call(endpoints.removeMember, { params: { organizationId, userId } }),

    site: (siteId: number | string) => call(endpoints.getSite, { params: { siteId } }),
    updateSite: (siteId: number, changes: { name?: string; domain?: string }) =>
      call(endpoints.updateSite, { params: { siteId }, body: changes }),
    deleteSite: (siteId: number) => call(endpoints.deleteSite, { params: { siteId } }),
    siteStatus: (siteId: number) => data(call(endpoints.siteHasEvents, { params: { siteId } })),
    excludedIPs: async (siteId: number) =>
      (await call(endpoints.excludedIps, { params: { siteId } })).excludedIPs,
    excludedCountries: async (siteId: number) =>
      (await call(endpoints.excludedCountries, { params: { siteId } })).excludedCountries,
    updateConfig: (siteId: number, changes: Partial<SiteConfig>) =>
      call(endpoints.updateSiteConfig, { params: { siteId }, body: changes }),
    privateLinkKey: async (siteId: number) =>
      (await data(call(endpoints.getPrivateLink, { params: { siteId } }))).privateLinkKey,
    setPrivateLink: async (siteId: number, action: PrivateLinkAction) =>
      (await data(call(endpoints.changePrivateLink, { params: { siteId }, body: { action } })))
        .privateLinkKey,

    /** A page of the site's identified users (members only); `query` as the Users page's URL holds it. */
    users: (siteId: number, query: UsersQuery, limit = 50) =>
      call(endpoints.listUsers, {
        params: { siteId },
        query: { search: query.search, sort: query.sort, order: query.order, page: query.page, limit },
      }),
    /** One identified user: figures, traits with their change times, sessions and events (404: none). */
    user: (siteId: number, userId: string) => data(call(endpoints.getUser, { params: { siteId, userId } })),

    webhooks: (siteId: number) => data(call(endpoints.listWebhooks, { params: { siteId } })),
    webhook: (siteId: number, id: string) => data(call(endpoints.getWebhook, { params: { siteId, id } })),
    createWebhook: (siteId: number, input: WebhookInput) =>
      data(call(endpoints.createWebhook, { params: { siteId }, body: input })),
    updateWebhook: (siteId: number, id: string, input: Partial<WebhookInput>) =>
      data(call(endpoints.updateWebhook, { params: { siteId, id }, body: input })),
    rotateWebhookSecret: (siteId: number, id: string) =>
      data(call(endpoints.rotateWebhookSecret, { params: { siteId, id } })),
    deleteWebhook: (siteId: number, id: string) => call(endpoints.deleteWebhook, { params: { siteId, id } }),
    deliveries: (siteId: number, id: string, page: number, limit = 20) =>
      call(endpoints.webhookDeliveries, { params: { siteId, id }, query: { page, limit } }),
    redeliver: (siteId: number, id: string, deliveryId: string) =>
      data(call(endpoints.redeliver, { params: { siteId, id, deliveryId } })),

    alerts: (siteId: number) => data(call(endpoints.listAlerts, { params: { siteId } })),
    createAlert: (siteId: number, input: AlertRuleInput) =>
      data(call(endpoints.createAlert, { params: { siteId }, body: input })),
    updateAlert: (siteId: number, id: string, input: AlertRuleInput) =>
      data(call(endpoints.updateAlert, { params: { siteId, id }, body: input })),
    deleteAlert: (siteId: number, id: string) => call(endpoints.deleteAlert, { params: { siteId, id } }),

    goals: (siteId: number) =>
      data(call(endpoints.listGoals, { params: { siteId }, query: { limit: 1000 } })),
    experiments: (siteId: number) => data(call(endpoints.listExperiments, { params: { siteId } })),
    experiment: (siteId: number, id: number) =>
      data(call(endpoints.getExperiment, { params: { siteId, experimentId: id } })),
    createExperiment: (siteId: number, input: ExperimentInput) =>
      data(call(endpoints.createExperiment, { params: { siteId }, body: input })),
    updateExperiment: (siteId: number, id: number, input: Partial<ExperimentInput>) =>
      data(call(endpoints.updateExperiment, { params: { siteId, experimentId: id }, body: input })),
    deleteExperiment: (siteId: number, id: number) =>
      call(endpoints.deleteExperiment, { params: { siteId, experimentId: id } }),

    apiKeys: () => data(call(endpoints.listApiKeys, {})),
    createApiKey: (input: ApiKeyInput) => data(call(endpoints.createApiKey, { body: input })),
    deleteApiKey: (id: string) => call(endpoints.deleteApiKey, { params: { id } }),

    sessions: () => data(call(endpoints.listOwnSessions, {})),
    revokeSession: (id: string) => call(endpoints.revokeOwnSession, { params: { id } }),
    /** Signs out every other session of the user; the answer sets this browser's new session cookie. */
    changePassword: (currentPassword: string, newPassword: string) =>
      call(endpoints.changePassword, { body: { currentPassword, newPassword } }),
  }
}

export type Api = ReturnType<typeof createApi>

/** The API the app uses. */
export const api: Api = createApi(transport)
