/**
 * The mail catcher's pages: the inbox and one message. Plain HTML forms (no JavaScript), light and
 * dark, usable at 390 px. A message's HTML is shown in a sandboxed iframe (srcdoc, no
 * allow-scripts) under a page CSP without script-src: nothing in a mail runs.
 */
import { escapeHtml, htmlPage } from '../support/html.ts'
import type { CaughtMessage } from './store.ts'

const STYLE = `
  :root { color-scheme: light dark; --bg: #f4f4f5; --card: #fff; --text: #18181b; --muted: #52525b; --line: #d4d4d8; --link: #1d4ed8; --accent: #18181b; --on-accent: #fff; --warn-bg: #fef3c7; --warn: #78350f; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #18181b; --card: #27272a; --text: #f4f4f5; --muted: #c4c4cc; --line: #52525b; --link: #93c5fd; --accent: #f4f4f5; --on-accent: #18181b; --warn-bg: #451a03; --warn: #fde68a; }
  }
  * { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; background: var(--bg); color: var(--text); margin: 0; line-height: 1.5; }
  main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
  h1 { font-size: 1.5rem; margin: 0.5rem 0 0.25rem; }
  h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
  a { color: var(--link); }
  .muted { color: var(--muted); }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: 0.5rem; padding: 1rem; margin: 1rem 0; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
  label { display: block; font-weight: 600; }
  input[type="email"], input[type="search"] { font: inherit; padding: 0.4rem 0.5rem; border: 1px solid var(--muted); border-radius: 0.375rem; background: var(--card); color: var(--text); min-width: 16rem; max-width: 100%; }
  button, .button { font: inherit; font-weight: 600; padding: 0.4rem 0.9rem; border-radius: 0.375rem; border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer; text-decoration: none; display: inline-block; }
  button.secondary { background: transparent; color: var(--text); border-color: var(--muted); }
  ::placeholder { color: var(--muted); opacity: 1; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: anywhere; }
  th { font-size: 0.875rem; color: var(--muted); }
  caption { text-align: left; padding-bottom: 0.5rem; }
  .warn { background: var(--warn-bg); color: var(--warn); border-radius: 0.375rem; padding: 0.5rem 0.75rem; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.875rem; margin: 0; }
  iframe { width: 100%; height: 36rem; border: 1px solid var(--line); border-radius: 0.375rem; background: #fff; resize: vertical; }
  dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
  dl.meta dt { font-weight: 600; color: var(--muted); }
  dl.meta dd { margin: 0; overflow-wrap: anywhere; }
  @media (max-width: 40rem) {
    thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
    table, caption, tbody, tr, th, td { display: block; }
    th { border: 0; padding: 0.125rem 0; }
    tr { border-bottom: 1px solid var(--line); padding: 0.5rem 0; }
    td { border: 0; padding: 0.125rem 0; }
    td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
    dl.meta { grid-template-columns: 1fr; }
    dl.meta dd { margin-bottom: 0.5rem; }
  }
`

function page(title: string, body: string): string {
  return htmlPage({ title, style: STYLE, main: body })
}

function time(iso: string): string {
  const date = new Date(iso)
  const shown = Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(shown)}</time>`
}

function recipients(message: CaughtMessage): string {
  const list = message.to.length > 0 ? message.to : message.envelope.to
  return list.join(', ')
}

export function renderInbox(input: { messages: CaughtMessage[]; to: string; outage: boolean; smtpUrl: string }): string {
  const { messages, to, outage } = input
  const count = `${messages.length} ${messages.length === 1 ? 'message' : 'messages'}${to ? ` to ${to}` : ''}`
  const rows = messages
    .map(
      (m) => `<tr>
  <td data-label="To">${escapeHtml(recipients(m))}</td>
  <td data-label="Subject"><a href="/messages/${escapeHtml(m.id)}">${escapeHtml(m.subject || '(no subject)')}</a></td>
  <td data-label="Received">${time(m.receivedAt)}</td>
</tr>`,
    )
    .join('\n')
  const table = messages.length
    ? `<table>
<caption class="muted">${escapeHtml(count)}, newest first</caption>
<thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Received</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : `<p>No messages${to ? ` to ${escapeHtml(to)}` : ''} yet. Mails the app sends appear here (reload the page).</p>`
  const outageBlock = outage
    ? `<p class="warn" role="status"><strong>Simulated SMTP outage:</strong> the server answers 421 to every connection; mail waits at the sender.</p>
<form method="post" action="/outage"><input type="hidden" name="on" value="false"><button type="submit" class="secondary">End the outage</button></form>`
    : `<form method="post" action="/outage"><input type="hidden" name="on" value="true"><button type="submit" class="secondary">Simulate an SMTP outage</button></form>`
  return page(
    to ? `Mail to ${to} — Forkmarket mail inbox` : 'Forkmarket mail inbox',
    `<h1>Mail inbox</h1>
<p class="muted">Forkmarket's local mail catcher: every mail the app sends while running locally lands here (SMTP at ${escapeHtml(input.smtpUrl)}). Nothing is sent to anyone.</p>
<form method="get" action="/" class="row" role="search">
  <div><label for="to">Recipient</label><input id="to" name="to" type="email" value="${escapeHtml(to)}" autocomplete="off" placeholder="buyer@example.com"></div>
  <button type="submit">Filter</button>
  ${to ? '<a href="/">Show all</a>' : ''}
  <a href="${to ? `/?to=${encodeURIComponent(to)}` : '/'}">Reload</a>
</form>
<section class="card" aria-label="Messages">
${table}
</section>
<div class="row">
${outageBlock}
${messages.length ? '<form method="post" action="/delete"><button type="submit" class="secondary">Delete all messages</button></form>' : ''}
</div>`,
  )
}

export function renderMessage(message: CaughtMessage): string {
  const title = message.subject || '(no subject)'
  // Links open outside the sandbox, in a new tab; scripts never run (no allow-scripts, CSP).
  const srcdoc = message.html ? `<base target="_blank">${message.html}` : ''
  const htmlPart = message.html
    ? `<iframe title="HTML part of the message" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(srcdoc)}"></iframe>`
    : '<p class="muted">This message has no HTML part.</p>'
  const textPart =
    message.text !== null ? `<pre>${escapeHtml(message.text)}</pre>` : '<p class="muted">This message has no plain-text part.</p>'
  const headerRows = message.headerLines
    .map((h) => `<tr><th scope="row">${escapeHtml(h.name)}</th><td>${escapeHtml(h.value)}</td></tr>`)
    .join('\n')
  const attachments = message.attachments.length
    ? `<h2>Attachments</h2><ul>${message.attachments
        .map((a) => `<li>${escapeHtml(a.filename ?? '(unnamed)')} — ${escapeHtml(a.contentType)}, ${a.size} bytes</li>`)
        .join('')}</ul>`
    : ''
  const unsubscribe = message.headers['list-unsubscribe']
  return page(
    `${title} — Forkmarket mail inbox`,
    `<p><a href="/">← Inbox</a></p>
<h1>${escapeHtml(title)}</h1>
<section class="card" aria-label="Summary">
<dl class="meta">
  <dt>From</dt><dd>${escapeHtml(message.headers.from ?? message.envelope.from)}</dd>
  <dt>To</dt><dd>${escapeHtml(message.headers.to ?? message.envelope.to.join(', '))}</dd>
  <dt>Delivered to</dt><dd>${escapeHtml(message.envelope.to.join(', '))}</dd>
  <dt>Received</dt><dd>${time(message.receivedAt)}</dd>
  ${unsubscribe ? `<dt>List-Unsubscribe</dt><dd>${escapeHtml(unsubscribe)}</dd>` : ''}
  <dt>Size</dt><dd>${message.size} bytes</dd>
</dl>
</section>
<h2>HTML</h2>
${htmlPart}
<h2>Plain text</h2>
<section class="card" aria-label="Plain text">${textPart}</section>
${attachments}
<h2>Headers</h2>
<section class="card" aria-label="Headers">
<table><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead><tbody>
${headerRows}
</tbody></table>
</section>
<p><a href="/messages/${escapeHtml(message.id)}/raw">View the source</a></p>`,
  )
}

export function renderNotFound(text: string): string {
  return page('Forkmarket mail inbox', `<p><a href="/">← Inbox</a></p><h1>Mail inbox</h1><p>${escapeHtml(text)}</p>`)
}
