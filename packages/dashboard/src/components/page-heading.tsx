/**
 * The page's `<h1>`: sets the document title and, after an in-app navigation, takes focus, so screen
 * readers announce the new page (the first page of a load keeps the browser's default focus).
 */
import { type ReactNode, useEffect, useRef } from 'react'

let firstPage = true

/** The `<h1>` showing `children` (default `title`); the tab title is `documentTitle · Pathlight`. */
export function PageHeading({
  title,
  documentTitle = title,
  children,
}: {
  title: string
  documentTitle?: string
  children?: ReactNode
}) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${documentTitle} · Pathlight`
  }, [documentTitle])
  useEffect(() => {
    if (firstPage) firstPage = false
    else ref.current?.focus()
  }, [])
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children ?? title}
    </h1>
  )
}
