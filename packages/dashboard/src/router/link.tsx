/** An in-app link: a real `<a href>` (open in a new tab works) whose plain clicks navigate in place. */
import type { AnchorHTMLAttributes, MouseEvent } from 'react'
import { isPlainClick, navigate } from './navigation'

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string
  /** Mark the link as the current page (`aria-current="page"`). */
  current?: boolean
}

/** An `<a href={to}>` whose plain left clicks call `navigate(to)` instead of loading a page. */
export function Link({ to, current, onClick, children, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (!isPlainClick(event, { target: rest.target, download: rest.download !== undefined })) return
    event.preventDefault()
    navigate(to)
  }
  return (
    <a href={to} onClick={handleClick} aria-current={current ? 'page' : undefined} {...rest}>
      {children}
    </a>
  )
}
