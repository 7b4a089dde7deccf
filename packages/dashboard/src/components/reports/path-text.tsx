/**
 * A page path that wraps only after a `/`, never inside a segment: each segment (with its trailing
 * slash) is kept on one line, and one too long for a line (over 20rem) is cut with an ellipsis. The
 * whole path is the title, so a cut one can still be read.
 */

/** `path` split after each `/`: '/blog/post' -> ['/', 'blog/', 'post']. */
export function pathSegments(path: string): string[] {
  return path.match(/[^/]*\/|[^/]+/g) ?? []
}

/** `path` as wrappable segments, titled with the whole path or `title`. */
export function PathText({ path, title = path }: { path: string; title?: string }) {
  return (
    <span className="path-text" title={title}>
      {pathSegments(path).map((segment, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: segments may repeat and never move
        <span key={i} className="path-segment">
          {segment}
        </span>
      ))}
    </span>
  )
}
