/**
 * A site's home page: its overview once the site has received an event, the installation page until
 * then. A site that receives its first event while the installation page is open keeps it (the check
 * turns green) and offers a button to the reports.
 */
import type { Site } from '@pathlight/protocol'
import { useState } from 'react'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { takeSiteStatus } from '../lib/site-status-prefetch'
import { useResource } from '../lib/use-resource'
import { InstallPage } from './install-page'
import { OverviewPage } from './overview-page'
import type { ReportContext } from './report-context'

/** The overview or the installation page of `site`. */
export function SiteHomePage({ site, ctx }: { site: Site; ctx: ReportContext }) {
  const status = useResource(`has-events:${site.siteId}`, () => takeSiteStatus(site.siteId))
  const [showReports, setShowReports] = useState(false)
  if (showReports || status.data?.hasEvents) return <OverviewPage ctx={ctx} createdAt={site.createdAt} />
  if (!status.data) return status.error ? <FormError error={status.error} /> : <Loading />
  return <InstallPage site={site} onShowReports={() => setShowReports(true)} />
}
