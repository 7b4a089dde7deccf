/** The frame of the signed-out pages: a centred card under the brand. */
import type { ReactNode } from 'react'

/** Wraps a signed-out page (sign-in, sign-up, start-up failure) in the centred card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="auth">
      <p className="auth-brand">
        <img src="/favicon.svg" alt="" width="28" height="28" />
        Pathlight
      </p>
      <div className="card auth-card">{children}</div>
    </main>
  )
}
