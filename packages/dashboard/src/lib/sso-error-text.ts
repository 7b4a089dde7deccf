/**
 * What the sign-in page says when single sign-on came back refused: Better Auth sends the browser to
 * `/sign-in?error=<code>` (and sometimes `error_description`).
 */

const messages: Record<string, string> = {
  state_mismatch: 'This sign-in could not be verified (it expired, or was opened twice). Start again.',
  state_not_found: 'This sign-in could not be verified (it expired, or was opened twice). Start again.',
  please_restart_the_process:
    'This sign-in could not be verified (it expired, or was opened twice). Start again.',
  invalid_callback_request: 'The identity provider sent back an answer Pathlight cannot read. Start again.',
  invalid_code:
    'The identity provider refused the sign-in code (it may have been used already). Start again.',
  unable_to_get_user_info:
    "The identity provider's answer could not be verified (its signature, audience or expiry), or it named an address outside the organization's domains, so the sign-in was refused.",
  sso_provider_not_found: 'That organization has no identity provider any more. Sign in with your password.',
  account_not_linked:
    'An account with this e-mail address already exists. Sign in with your password; the operator can allow linking it to single sign-on.',
  email_not_found: 'The identity provider gave no e-mail address for your account.',
  access_denied: 'The identity provider did not allow the sign-in.',
  sso_provider_unavailable: 'The identity provider cannot be reached right now. Try again later.',
}

/** The message for an error code of a refused single sign-on. */
export function ssoErrorText(code: string, description?: string | null): string {
  return messages[code] ?? `Single sign-on failed (${description || code}).`
}
