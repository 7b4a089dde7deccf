/**
 * A user agent string summarised for people: 'Chrome 156 on Linux', 'Safari 17 on iOS', 'Firefox 128 on
 * Windows'. Recognises the common browsers and systems only, with the browser's major version; anything
 * else shows its first product token ('curl 8') or 'Unknown browser'. Not for analytics (the server
 * parses user agents for reports); just enough to tell one's own sessions apart.
 */

/** Browsers, most specific first: Edge, Opera and Samsung Internet also say Chrome, and Chrome says Safari. */
const browsers: [name: string, pattern: RegExp][] = [
  ['Edge', /\b(?:Edg|EdgA|EdgiOS)\/(\d+)/],
  ['Opera', /\b(?:OPR|OPiOS)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
]

/** Systems, most specific first: Android and ChromeOS also say Linux, iOS says 'like Mac OS X'. */
const systems: [name: string, pattern: RegExp][] = [
  ['Windows', /\bWindows\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
]

/** E.g. 'Chrome 156 on Linux'; 'Unknown browser' for null or empty. */
export function describeUserAgent(userAgent: string | null): string {
  const ua = userAgent?.trim() ?? ''
  if (ua === '') return 'Unknown browser'
  const os = systems.find(([, pattern]) => pattern.test(ua))?.[0]
  for (const [name, pattern] of browsers) {
    const version = pattern.exec(ua)?.[1]
    if (version) return os ? `${name} ${version} on ${os}` : `${name} ${version}`
  }
  const product = /^([A-Za-z][\w.-]*)(?:\/(\d+))?/.exec(ua)
  const other = product && product[1] !== 'Mozilla' ? [product[1], product[2]].filter(Boolean).join(' ') : ''
  if (other) return os ? `${other} on ${os}` : other
  return os ? `Unknown browser on ${os}` : 'Unknown browser'
}
