/**
 * The one layout of every e-mail: a title, paragraphs, an optional button (its URL also written out,
 * for clients that strip links) and a footer, as plain inline-styled HTML (mail clients ignore style
 * sheets) and as the equivalent plain text. Every value is escaped: templates pass raw text.
 */

/** What a template puts in the layout; all plain text (escaped here). */
export interface MailParts {
  title: string
  paragraphs: string[]
  /** The call to action: a button in HTML, `label: url` in the text part. */
  action?: { label: string; url: string }
  /** Small print under a rule (why the reader got it, how to stop it). */
  footer?: string
  /** A link after the small print (e.g. Unsubscribe): a link in HTML, `label: url` in the text part. */
  footerLink?: { label: string; url: string }
}

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** `value` safe in HTML text and in a double-quoted attribute. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => escapes[c] ?? c)

const font = 'font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Roboto,Helvetica,Arial,sans-serif'

/** Render the parts as `{html, text}`: the HTML document and its plain-text equivalent. */
export function renderMail(parts: MailParts): { html: string; text: string } {
  const paragraphs = parts.paragraphs
    .map(
      (p) => `<p style="margin:0 0 16px;font-size:15px;line-height:22px;color:#1f2937">${escapeHtml(p)}</p>`,
    )
    .join('\n')
  const action = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;font-size:15px">${escapeHtml(parts.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:18px;color:#6b7280">Or open this address: <a href="${escapeHtml(parts.action.url)}" style="color:#2563eb;word-break:break-all">${escapeHtml(parts.action.url)}</a></p>`
    : ''
  const footer = parts.footer
    ? `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px">
<p style="margin:0;font-size:12px;line-height:18px;color:#6b7280">${escapeHtml(parts.footer)}${
        parts.footerLink
          ? ` <a href="${escapeHtml(parts.footerLink.url)}" style="color:#6b7280">${escapeHtml(parts.footerLink.label)}</a>`
          : ''
      }</p>`
    : ''
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(parts.title)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;${font}">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;${font}">
<p style="margin:0 0 24px;font-size:14px;font-weight:700;color:#2563eb">Pathlight</p>
<h1 style="margin:0 0 20px;font-size:20px;line-height:28px;color:#111827">${escapeHtml(parts.title)}</h1>
${paragraphs}
${action}
${footer}
</div>
</body></html>
`
  const text = [
    parts.title,
    '',
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`, ''] : []),
    ...(parts.footer ? ['--', parts.footer, ''] : []),
    ...(parts.footer && parts.footerLink ? [`${parts.footerLink.label}: ${parts.footerLink.url}`, ''] : []),
  ].join('\n')
  return { html, text }
}
