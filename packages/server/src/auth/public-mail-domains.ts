/**
 * Public mail domains: addresses anyone can get, so no organization may claim one for its identity
 * provider (its provider would then receive every user of that domain). A fixed list of the large
 * free mail services; subdomains of them are refused too.
 */

/** The domains refused as an organization's SSO domain. */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'ymail.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'mail.ru',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
  'fastmail.com',
  'tutanota.com',
  'tuta.io',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  't-online.de',
  'libero.it',
  'seznam.cz',
  'rediffmail.com',
])

/** True for a public mail domain or a subdomain of one. @param domain lowercase */
export function isPublicMailDomain(domain: string): boolean {
  const labels = domain.split('.')
  for (let i = 0; i < labels.length - 1; i++) {
    if (PUBLIC_MAIL_DOMAINS.has(labels.slice(i).join('.'))) return true
  }
  return false
}

/** The lowercase domain of an e-mail address, or undefined when it has none. */
export function emailDomainOf(email: string): string | undefined {
  const at = email.lastIndexOf('@')
  if (at < 1 || at === email.length - 1) return undefined
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase()
}
