/** Previous / next links of a paginated list whose page is in the URL. */
import { Link } from '../../router/link'

/** Nothing for a single page. */
export function Pager({
  page,
  totalPages,
  hrefOf,
}: {
  page: number
  totalPages: number
  hrefOf: (page: number) => string
}) {
  if (totalPages <= 1) return null
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? <Link to={hrefOf(page - 1)}>← Newer</Link> : <span />}
      <span className="muted">
        Page {page} of {totalPages}
      </span>
      {page < totalPages ? <Link to={hrefOf(page + 1)}>Older →</Link> : <span />}
    </nav>
  )
}
