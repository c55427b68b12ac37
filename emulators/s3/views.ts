import { escapeHtml, htmlPage } from '../support/html.ts'
import type { ObjectMeta } from './store.ts'

/** The emulator's page for people (`/_emulator/`): buckets, and a bucket's objects with presigned links. */
export function renderBrowsePage(view: { buckets: string[]; bucket?: string; objects: Array<ObjectMeta & { href: string }> }): string {
  const bucketLinks = view.buckets
    .map((name) => `<li><a href="/_emulator/${escapeHtml(encodeURIComponent(name))}/">${escapeHtml(name)}</a></li>`)
    .join('')
  const rows = view.objects
    .map(
      (o) =>
        `<tr><td><a href="${escapeHtml(o.href)}">${escapeHtml(o.key)}</a></td><td>${o.size}</td><td>${escapeHtml(o.contentType)}</td><td>${escapeHtml(new Date(o.lastModified).toISOString())}</td></tr>`,
    )
    .join('')
  const objects = view.bucket
    ? `<h2>${escapeHtml(view.bucket)} (${view.objects.length} objects)</h2>
<table><thead><tr><th scope="col">Key</th><th scope="col">Bytes</th><th scope="col">Type</th><th scope="col">Last modified</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p>Choose a bucket. Links to objects are presigned URLs, valid for an hour.</p>'
  return htmlPage({
    title: 'S3 emulator',
    style: `body{font:15px/1.5 system-ui,sans-serif;margin:2rem;color:#111;background:#fff}a{color:#0645ad}table{border-collapse:collapse}td,th{padding:.25rem .75rem;border-bottom:1px solid #ccc;text-align:left}
@media (prefers-color-scheme:dark){body{color:#eee;background:#111}a{color:#8ab4f8}}`,
    main: `<h1>Forkmarket S3 emulator</h1><nav aria-label="Buckets"><ul>${bucketLinks}</ul></nav>${objects}`,
  })
}
