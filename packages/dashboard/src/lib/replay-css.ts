/**
 * URLs in replayed CSS, made inert. A recording is data from any visitor of a tracked site, and the
 * player rebuilds it in an iframe of the dashboard's own origin, where the dashboard's
 * Content-Security-Policy lets only this origin (and `data:`) load: a URL in the recorded CSS (relative,
 * or naming this origin) would make the viewer's browser send a GET to Pathlight with the viewer's
 * cookie, and any other origin's is refused by the policy anyway. So every URL of replayed CSS that
 * would be fetched becomes the empty URL (which loads nothing), but `data:` URLs and fragment-only
 * references (`url(#clip)`, to an element of the replayed page).
 *
 * The CSS is tokenized as browsers do (CSS Syntax 3, `@csstools/css-tokenizer`): escapes are decoded
 * before a name is compared, so `\75 rl(...)` and `@\69mport` are caught; `url(...)` tokens, strings in
 * `url()`, `src()`, `image()`, `image-set()` and `cross-fade()` (and their `-webkit-` forms), and the
 * strings of an `@import` prelude are the URLs.
 */
import { type CSSToken, stringify, TokenType, tokenize } from '@csstools/css-tokenizer'

/** Functions whose string arguments are URLs. */
const URL_FUNCTIONS: ReadonlySet<string> = new Set([
  'url',
  'src',
  'image',
  'image-set',
  '-webkit-image-set',
  'cross-fade',
  '-webkit-cross-fade',
])

/**
 * Whether a URL may stay: `data:` (nothing is fetched) and `#fragment` (an element of the page itself).
 * Leading and trailing spaces and control characters are ignored, as the URL parser ignores them.
 */
export function isInertUrl(url: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the URL parser strips C0 controls too
  const trimmed = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').toLowerCase()
  return trimmed === '' || trimmed.startsWith('data:') || trimmed.startsWith('#')
}

/**
 * `css` with every URL that would be fetched replaced by the empty URL; the rest of the text is kept
 * as written (comments, whitespace, invalid parts included).
 * @param css a style sheet, a rule, a declaration list (a `style` attribute) or a single value
 */
export function neutralizeCssUrls(css: string): string {
  if (!mayHoldUrl(css)) return css
  const tokens = tokenize({ css }, { onParseError: () => {} })
  /** The open functions and parentheses, innermost last: a function's name, '' for a bare `(`. */
  const open: string[] = []
  let inImport = false
  let changed = false
  for (const token of tokens) {
    switch (token[0]) {
      case TokenType.Function:
        open.push(token[4].value.toLowerCase())
        break
      case TokenType.OpenParen:
        open.push('')
        break
      case TokenType.CloseParen:
        open.pop()
        break
      case TokenType.AtKeyword:
        inImport = token[4].value.toLowerCase() === 'import'
        break
      case TokenType.Semicolon:
      case TokenType.OpenCurly:
      case TokenType.CloseCurly:
        inImport = false
        break
      case TokenType.URL:
        if (!isInertUrl(token[4].value)) changed = blank(token, 'url()')
        break
      case TokenType.String:
        if ((inImport || open.some((name) => URL_FUNCTIONS.has(name))) && !isInertUrl(token[4].value)) {
          changed = blank(token, '""')
        }
        break
      default:
        break
    }
  }
  return changed ? stringify(...tokens) : css
}

/** Put `text` in the token's place when it is written out; true. */
function blank(token: CSSToken, text: string): true {
  token[1] = text
  return true
}

/**
 * A cheap first look: CSS can name a URL only through a function or `@import`, so text without `(`
 * and without `@` holds none.
 */
const mayHoldUrl = (css: string): boolean => css.includes('(') || css.includes('@')
