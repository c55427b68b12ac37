import type { ComponentProps, ReactNode } from 'react'

/** Date shown on every legal and help page. Change it whenever their text changes. */
export const LEGAL_LAST_UPDATED = '21 November 2026'

/** Where the legal and help pages tell people to write to. */
export const SUPPORT_EMAIL = 'support@forkmarket.app'

/**
 * Readable long-form typography without the typography plugin: element
 * styles are applied to descendants with arbitrary variants.
 */
const PROSE_CLASSES = [
  'max-w-none text-base leading-7 text-foreground',
  '[&>:first-child]:mt-0 [&>section:first-child>h2:first-child]:mt-0',
  // headings
  '[&_h2]:mt-12 [&_h2]:scroll-mt-24 [&_h2]:border-b [&_h2]:border-border [&_h2]:pb-2 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight sm:[&_h2]:text-2xl',
  '[&_h3]:mt-8 [&_h3]:scroll-mt-24 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:tracking-tight',
  '[&_h2+*]:mt-4 [&_h3+*]:mt-2',
  // text
  '[&_p]:mt-4 [&_p]:text-foreground/90',
  '[&_strong]:font-semibold [&_strong]:text-foreground',
  '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:decoration-2',
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.875em]',
  // lists
  '[&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6',
  '[&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
  '[&_li]:pl-1 [&_li]:text-foreground/90 [&_li::marker]:text-muted-foreground',
  '[&_li>p]:mt-2',
  // definition lists
  '[&_dl]:mt-4 [&_dt]:mt-4 [&_dt]:font-semibold [&_dd]:mt-1 [&_dd]:pl-4 [&_dd]:text-foreground/90',
  // tables (wrap them in <ProseTable>, which scrolls sideways on small screens)
  '[&_table]:mt-4 [&_table]:w-full [&_table]:border-collapse [&_table]:text-sm',
  '[&_th]:border [&_th]:border-border [&_th]:bg-muted [&_th]:px-3 [&_th]:py-2 [&_th]:text-left [&_th]:font-semibold',
  '[&_td]:border [&_td]:border-border [&_td]:px-3 [&_td]:py-2 [&_td]:align-top',
  // misc
  '[&_hr]:my-10 [&_hr]:border-border',
  '[&_blockquote]:mt-4 [&_blockquote]:border-l-4 [&_blockquote]:border-border [&_blockquote]:pl-4 [&_blockquote]:italic',
].join(' ')

/** Wrapper giving its children readable article typography. */
export function Prose({ className, ...props }: ComponentProps<'div'>) {
  return <div className={className ? `${PROSE_CLASSES} ${className}` : PROSE_CLASSES} {...props} />
}

/** A highlighted box inside prose, for key facts (e.g. the escrow summary). */
export function Callout({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <aside className="mt-6 rounded-lg border border-border bg-muted/50 p-4 text-sm leading-6 sm:p-5 [&>:first-child]:mt-0 [&_p]:mt-2 [&_ul]:mt-2">
      {title ? <p className="font-semibold text-foreground">{title}</p> : null}
      {children}
    </aside>
  )
}

export type TocEntry = { id: string; title: string }

/** Page title, "Last updated" line and optional lead paragraph shared by the legal and help pages. */
export function LegalPageHeader({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <header className="border-b border-border pb-8">
      <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h1>
      <p className="mt-3 text-sm text-muted-foreground">{`Last updated: ${LEGAL_LAST_UPDATED}`}</p>
      {lead ? <p className="mt-6 text-lg leading-8 text-pretty text-muted-foreground">{lead}</p> : null}
    </header>
  )
}

/**
 * Common frame of the legal pages: header, optional table of contents, then
 * the body in <Prose>.
 */
export function LegalPage({ title, lead, toc, children }: { title: string; lead?: ReactNode; toc?: TocEntry[]; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <LegalPageHeader title={title} lead={lead} />

      {toc && toc.length > 0 ? (
        <nav aria-label="On this page" className="mt-8 rounded-lg border border-border bg-card p-5 text-card-foreground">
          <p className="text-sm font-semibold">On this page</p>
          <ol className="mt-3 list-decimal gap-x-10 pl-6 text-sm text-muted-foreground sm:columns-2 [&>li]:mb-1.5 [&>li]:break-inside-avoid">
            {toc.map((entry) => (
              <li key={entry.id}>
                <a href={`#${entry.id}`} className="hover:text-foreground hover:underline hover:underline-offset-4">
                  {entry.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}

      <Prose className="mt-10">{children}</Prose>
    </div>
  )
}

/**
 * A prose table that scrolls sideways where it does not fit (phones). The
 * scroll area is named and focusable, so keyboard users can scroll it too.
 */
export function ProseTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  )
}
