/** The report page of a route, for a member (with the site) or a shared view (without it). */
import type { Site } from '@pathlight/protocol'
import type { ReportRouteName, RouteOf } from '../router/routes'
import { CrawlersPage } from './crawlers-page'
import { ErrorPage } from './error-page'
import { ErrorsPage } from './errors-page'
import { EventsPage } from './events-page'
import { FunnelsPage } from './funnels-page'
import { GoalPage } from './goal-page'
import { GoalsPage } from './goals-page'
import { JourneysPage } from './journeys-page'
import { OverviewPage } from './overview-page'
import { type ReportContext, useReportContext } from './report-context'
import { RetentionPage } from './retention-page'
import { SessionPage } from './session-page'
import { SessionsPage } from './sessions-page'
import { SiteHomePage } from './site-home-page'
import { WebVitalsPage } from './web-vitals-page'

/** Renders the page of `route`; `site` (members only) lets the home page show the installation steps. */
export function ReportPage({
  route,
  siteId,
  site,
  privateKey,
  canAdmin,
  shared,
}: {
  route: RouteOf<ReportRouteName>
  siteId: number
  site?: Site
  privateKey?: string
  canAdmin: boolean
  shared: boolean
}) {
  const ctx = useReportContext(siteId, { privateKey, canAdmin, shared })
  return <PageOf route={route} site={site} ctx={ctx} />
}

function PageOf({ route, site, ctx }: { route: RouteOf<ReportRouteName>; site?: Site; ctx: ReportContext }) {
  switch (route.name) {
    case 'site':
      return site ? <SiteHomePage site={site} ctx={ctx} /> : <OverviewPage ctx={ctx} />
    case 'goals':
      return <GoalsPage ctx={ctx} />
    case 'goal':
      return <GoalPage ctx={ctx} goalId={Number(route.goalId)} />
    case 'errors':
      return <ErrorsPage ctx={ctx} />
    case 'errorDetail':
      return <ErrorPage ctx={ctx} message={route.message ?? ''} />
    case 'webVitals':
      return <WebVitalsPage ctx={ctx} />
    case 'sessions':
      return <SessionsPage ctx={ctx} />
    case 'session':
      return <SessionPage ctx={ctx} sessionId={route.sessionId} />
    case 'events':
      return <EventsPage ctx={ctx} />
    case 'journeys':
      return <JourneysPage ctx={ctx} route={route} />
    case 'retention':
      return <RetentionPage ctx={ctx} route={route} />
    case 'funnels':
      return <FunnelsPage ctx={ctx} route={route} />
    case 'crawlers':
      return <CrawlersPage ctx={ctx} />
  }
}
