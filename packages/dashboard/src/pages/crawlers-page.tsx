/**
 * The crawlers and agents that read the site, from its access logs (`POST /api/sites/{id}/logs` or
 * `pathlight ingest-log`): per agent its operator, category, verified or claimed, requests, pages,
 * bytes, first and last seen; requests per day by category; each agent's most crawled pages; status
 * codes and bytes. Apart from the visit reports: crawler requests are not pageviews.
 */
import type { CrawlerReport } from '@pathlight/protocol'
import { FormError } from '../components/form-error'
import { Loading } from '../components/loading'
import { PathText } from '../components/reports/path-text'
import { ReportToolbar } from '../components/reports/report-toolbar'
import { formatCount } from '../lib/report-format'
import { useReport } from '../lib/use-report'
import type { ReportContext } from './report-context'

type Category = CrawlerReport['agents'][number]['category']

/** How the page names each category. */
export const categoryLabels: Record<Category, string> = {
  ai_training: 'AI training crawler',
  ai_search: 'AI search indexer',
  ai_assistant: 'AI assistant (for a user)',
  search_engine: 'Search engine',
  seo: 'SEO tool',
  monitor: 'Monitor',
  other: 'Other bot',
}

const formatBytes = (bytes: number): string =>
  bytes >= 1e9
    ? `${(bytes / 1e9).toFixed(1)} GB`
    : bytes >= 1e6
      ? `${(bytes / 1e6).toFixed(1)} MB`
      : bytes >= 1e3
        ? `${(bytes / 1e3).toFixed(1)} kB`
        : `${bytes} B`

const formatTime = (iso: string): string => iso.replace('T', ' ').slice(0, 16)

/** The Crawlers page of the site in `ctx`. */
export function CrawlersPage({ ctx }: { ctx: ReportContext }) {
  const report = useReport(`crawlers:${ctx.queryKey}`, () => ctx.reports.crawlers(ctx.query))
  const data = report.data
  return (
    <div className="stack">
      <ReportToolbar ctx={ctx} />
      <section className="card" aria-labelledby="crawlers-title" aria-busy={report.loading}>
        <h2 id="crawlers-title">Crawlers and agents</h2>
        <p className="muted">
          Requests of crawlers and AI agents from the site’s access logs. Verified: every request came from
          the operator’s published addresses; claimed: the user agent says so, the address does not show it.
        </p>
        <FormError error={report.error} />
        {!data && report.loading && <Loading />}
        {data && data.agents.length === 0 && (
          <p className="notice">
            No crawler requests in this period. Send the site’s access log with{' '}
            <code>pathlight ingest-log --site {ctx.siteId} FILE</code> or to{' '}
            <code>POST /api/sites/{ctx.siteId}/logs</code> (docs/crawlers.md).
          </p>
        )}
        {data && data.agents.length > 0 && <AgentsTable report={data} />}
      </section>
      {data && data.agents.length > 0 && (
        <>
          <CategorySeries report={data} />
          <TopPages report={data} />
          <Statuses report={data} />
        </>
      )}
    </div>
  )
}

function AgentsTable({ report }: { report: CrawlerReport }) {
  return (
    <table className="report-table" aria-label="Agents">
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Operator</th>
          <th scope="col">Category</th>
          <th scope="col">Verified</th>
          <th scope="col" className="num">
            Requests
          </th>
          <th scope="col" className="num">
            Pages
          </th>
          <th scope="col" className="num">
            Bytes
          </th>
          <th scope="col">First seen (UTC)</th>
          <th scope="col">Last seen (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {report.agents.map((row) => (
          <tr key={row.agent}>
            <th scope="row">{row.agent}</th>
            <td>{row.operator || '—'}</td>
            <td>{categoryLabels[row.category]}</td>
            <td>
              {row.verified
                ? 'Verified'
                : row.verifiedRequests > 0
                  ? `Partly (${formatCount(row.verifiedRequests)})`
                  : 'Claimed'}
            </td>
            <td className="num">{formatCount(row.requests)}</td>
            <td className="num">{formatCount(row.pages)}</td>
            <td className="num">{formatBytes(row.bytes)}</td>
            <td>{formatTime(row.firstSeen)}</td>
            <td>{formatTime(row.lastSeen)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Requests per day and category (the agents of each day in the cell's title). */
function CategorySeries({ report }: { report: CrawlerReport }) {
  const dates = [...new Set(report.series.map((row) => row.date))]
  const categories = (Object.keys(categoryLabels) as Category[]).filter((category) =>
    report.series.some((row) => row.category === category),
  )
  const cell = (date: string, category: Category) =>
    report.series.filter((row) => row.date === date && row.category === category)
  return (
    <section className="card" aria-labelledby="crawler-series-title">
      <h2 id="crawler-series-title">Requests over time</h2>
      <table className="report-table" aria-label="Requests per day by category">
        <thead>
          <tr>
            <th scope="col">Day</th>
            {categories.map((category) => (
              <th key={category} scope="col" className="num">
                {categoryLabels[category]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {dates.map((date) => (
            <tr key={date}>
              <th scope="row">{date}</th>
              {categories.map((category) => {
                const rows = cell(date, category)
                const total = rows.reduce((sum, row) => sum + row.requests, 0)
                return (
                  <td
                    key={category}
                    className="num"
                    title={rows.map((row) => `${row.agent}: ${formatCount(row.requests)}`).join(', ')}
                  >
                    {formatCount(total)}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

function TopPages({ report }: { report: CrawlerReport }) {
  return (
    <section className="card" aria-labelledby="crawler-pages-title">
      <h2 id="crawler-pages-title">Pages most crawled, per agent</h2>
      <table className="report-table" aria-label="Pages most crawled per agent">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Page</th>
            <th scope="col" className="num">
              Requests
            </th>
          </tr>
        </thead>
        <tbody>
          {report.pages.map((row) => (
            <tr key={`${row.agent}\n${row.pathname}`}>
              <td>{row.agent}</td>
              <td>
                <PathText path={row.pathname} />
              </td>
              <td className="num">{formatCount(row.requests)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

function Statuses({ report }: { report: CrawlerReport }) {
  return (
    <section className="card" aria-labelledby="crawler-status-title">
      <h2 id="crawler-status-title">Status codes and bytes served</h2>
      <table className="report-table" aria-label="Status codes and bytes per agent">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Requests
            </th>
            <th scope="col" className="num">
              Bytes
            </th>
          </tr>
        </thead>
        <tbody>
          {report.statuses.map((row) => (
            <tr key={`${row.agent}\n${row.status}`}>
              <td>{row.agent}</td>
              <td>{row.status}</td>
              <td className="num">{formatCount(row.requests)}</td>
              <td className="num">{formatBytes(row.bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
