/**
 * The app: finds out who is signed in, keeps signed-out visitors on the sign-in pages (returning them
 * to where they were going afterwards; on a fresh instance, without its owner yet, on creating that
 * account), and renders the page of the current route. Report pages
 * opened with a private link key (`?key=`), or signed out (a public site), are the shared view.
 */
import type { SessionInfo } from '@pathlight/protocol'
import { lazy, Suspense, useCallback, useEffect, useState } from 'react'
import { api } from './api/api'
import { type ApiError, asApiError } from './api/api-error'
import { onSessionEnded } from './api/client'
import { AuthLayout } from './components/auth-layout'
import { FormError } from './components/form-error'
import { Loading } from './components/loading'
import { HomePage } from './pages/home-page'
import { NotFoundPage } from './pages/not-found-page'
import { OrganizationPage } from './pages/organization-page'
import { ReportPage } from './pages/report-page'
import { SharedScope } from './pages/shared-scope'
import { SignInPage } from './pages/sign-in-page'
import { SignUpPage } from './pages/sign-up-page'
import { SiteScope } from './pages/site-scope'
import { browserHistory, navigate } from './router/navigation'
import { Redirect } from './router/redirect'
import { isReportRoute, type Route, routePath } from './router/routes'
import { useRoute } from './router/use-route'
import { SessionProvider } from './session'

/**
 * Pages off the first screen's path (sign-in, the organizations, a site's reports), each loaded as its own
 * chunk when first opened, so the script every visit loads stays small.
 */
const AccountPage = lazy(() => import('./pages/account-page').then((page) => ({ default: page.AccountPage })))
const AlertsPage = lazy(() => import('./pages/alerts-page').then((page) => ({ default: page.AlertsPage })))
const OAuthConsentPage = lazy(() =>
  import('./pages/oauth-consent-page').then((page) => ({ default: page.OAuthConsentPage })),
)
const AlertLinkPage = lazy(() =>
  import('./pages/alert-link-page').then((page) => ({ default: page.AlertLinkPage })),
)
const EmailReportLinkPage = lazy(() =>
  import('./pages/email-report-link-page').then((page) => ({ default: page.EmailReportLinkPage })),
)
const ForgotPasswordPage = lazy(() =>
  import('./pages/forgot-password-page').then((page) => ({ default: page.ForgotPasswordPage })),
)
const InvitationPage = lazy(() =>
  import('./pages/invitation-page').then((page) => ({ default: page.InvitationPage })),
)
const MembersPage = lazy(() => import('./pages/members-page').then((page) => ({ default: page.MembersPage })))
const NewOrganizationPage = lazy(() =>
  import('./pages/new-organization-page').then((page) => ({ default: page.NewOrganizationPage })),
)
const NewSitePage = lazy(() =>
  import('./pages/new-site-page').then((page) => ({ default: page.NewSitePage })),
)
const ResetPasswordPage = lazy(() =>
  import('./pages/reset-password-page').then((page) => ({ default: page.ResetPasswordPage })),
)
const SiteSettingsPage = lazy(() =>
  import('./pages/site-settings-page').then((page) => ({ default: page.SiteSettingsPage })),
)
const UserPage = lazy(() => import('./pages/user-page').then((page) => ({ default: page.UserPage })))
const UsersPage = lazy(() => import('./pages/users-page').then((page) => ({ default: page.UsersPage })))
const WebhookPage = lazy(() => import('./pages/webhook-page').then((page) => ({ default: page.WebhookPage })))
const WebhooksPage = lazy(() =>
  import('./pages/webhooks-page').then((page) => ({ default: page.WebhooksPage })),
)

/** The whole app; mounted once by main.tsx. A page still loading its chunk shows the loading state. */
export function App() {
  return (
    <Suspense fallback={<Loading />}>
      <Screen />
    </Suspense>
  )
}

/** The screen of the current route: the session first, then the page it may see. */
function Screen() {
  const route = useRoute()
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined)
  const [failure, setFailure] = useState<ApiError>()

  // Signed out: whether the instance has its owner yet (a fresh one opens on signing up).
  const [hasOwner, setHasOwner] = useState(true)

  const loadSession = useCallback(() => {
    setFailure(undefined)
    api
      .session()
      .then(async (value) => {
        if (!value) setHasOwner((await api.instanceSetup()).hasOwner)
        setSession(value ?? null)
      })
      .catch((error: unknown) => setFailure(asApiError(error)))
  }, [])
  useEffect(loadSession, [loadSession])
  useEffect(() => onSessionEnded(() => setSession(null)), [])
  const signedOut = useCallback(() => {
    setSession(null)
    navigate(routePath({ name: 'signIn' }))
  }, [])

  if (failure) {
    return (
      <AuthLayout>
        <FormError error={failure} title="Pathlight could not start" />
        <button type="button" className="button button-primary" onClick={loadSession}>
          Try again
        </button>
      </AuthLayout>
    )
  }
  if (session === undefined) return <Loading />

  const privateKey = new URLSearchParams(browserHistory().snapshot().split('?')[1] ?? '').get('key') ?? ''
  if (isReportRoute(route) && (privateKey !== '' || !session)) {
    return <SharedScope route={route} privateKey={privateKey || undefined} signedIn={session !== null} />
  }
  // Password reset pages work signed in or out; an invitation's page shows its offer to anyone.
  if (route.name === 'forgotPassword') return <ForgotPasswordPage />
  if (route.name === 'resetPassword') return <ResetPasswordPage token={route.token} error={route.error} />
  if (route.name === 'invitation') {
    return <InvitationPage key={route.token} token={route.token} signedInAs={session?.user.email} />
  }
  // The links of the e-mail report mails carry their own credential, a token.
  if (route.name === 'emailReportConfirm' || route.name === 'emailReportUnsubscribe') {
    const action = route.name === 'emailReportConfirm' ? 'confirm' : 'unsubscribe'
    return <EmailReportLinkPage key={route.token} action={action} token={route.token} />
  }
  if (route.name === 'alertConfirm' || route.name === 'alertUnsubscribe') {
    const action = route.name === 'alertConfirm' ? 'confirm' : 'unsubscribe'
    return <AlertLinkPage key={route.token} action={action} token={route.token} />
  }
  if (!session) {
    if (route.name === 'signIn') return <SignInPage onSignedIn={setSession} />
    if (route.name === 'signUp') return <SignUpPage onSignedIn={setSession} />
    const here = browserHistory().snapshot()
    const name = hasOwner ? 'signIn' : 'signUp'
    return <Redirect to={routePath({ name, ...(here === '/' ? {} : { next: here }) })} />
  }
  if (route.name === 'signIn' || route.name === 'signUp') {
    return <Redirect to={route.next || '/'} />
  }
  if (route.name === 'oauthConsent') return <OAuthConsentPage />
  return (
    <SessionProvider key={session.user.id} user={session.user} onSignedOut={signedOut}>
      <Page route={route} />
    </SessionProvider>
  )
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <HomePage />
    case 'account':
      return <AccountPage />
    case 'newOrganization':
      return <NewOrganizationPage />
    case 'organization':
      return <OrganizationPage key={route.organizationId} organizationId={route.organizationId} />
    case 'newSite':
      return <NewSitePage key={route.organizationId} organizationId={route.organizationId} />
    case 'members':
      return <MembersPage key={route.organizationId} organizationId={route.organizationId} />
    case 'site':
    case 'goals':
    case 'goal':
    case 'errors':
    case 'errorDetail':
    case 'webVitals':
    case 'sessions':
    case 'session':
    case 'events':
    case 'journeys':
    case 'retention':
    case 'funnels':
    case 'crawlers':
      return (
        <SiteScope key={route.siteId} siteId={route.siteId} route={route}>
          {(context) => (
            <ReportPage
              route={route}
              siteId={context.site.siteId}
              site={context.site}
              canAdmin={context.canAdmin}
              shared={false}
            />
          )}
        </SiteScope>
      )
    case 'siteSettings':
    case 'webhooks':
    case 'webhook':
    case 'alerts':
    case 'users':
    case 'user':
      return (
        <SiteScope key={route.siteId} siteId={route.siteId} route={route}>
          {(context) => {
            switch (route.name) {
              case 'siteSettings':
                return <SiteSettingsPage {...context} />
              case 'webhooks':
                return <WebhooksPage {...context} />
              case 'webhook':
                return <WebhookPage {...context} webhookId={route.webhookId} page={route.page ?? 1} />
              case 'alerts':
                return <AlertsPage {...context} />
              case 'users':
                return <UsersPage site={context.site} route={route} />
              case 'user':
                return <UserPage key={route.userId} site={context.site} userId={route.userId} />
            }
          }}
        </SiteScope>
      )
    case 'emailReportConfirm':
    case 'emailReportUnsubscribe':
    case 'alertConfirm':
    case 'alertUnsubscribe':
    case 'signIn':
    case 'signUp':
    case 'forgotPassword':
    case 'resetPassword':
    case 'invitation':
    case 'notFound':
      return <NotFoundPage />
  }
}
