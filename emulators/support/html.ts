/**
 * The emulators' pages for a person (consent screens, the inbox, the "act as a user" pages): text
 * escaped for HTML, and one page shell — language, viewport for 390 px, the emulator's own style,
 * an optional banner above the `<main>` landmark that holds the page.
 */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Safe in element content and in a double- or single-quoted attribute value. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
}

export interface HtmlPage {
  /** Plain text: escaped here. */
  title: string
  /** The page's CSS, if any. */
  style?: string
  /** HTML above `<main>` (a site banner). */
  header?: string
  /** The HTML inside `<main>`. */
  main: string
}

export function htmlPage(page: HtmlPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
${page.style ? `<style>${page.style}</style>\n` : ''}</head>
<body>
${page.header ? `${page.header}\n` : ''}<main>
${page.main}
</main>
</body>
</html>
`
}
