import { Link } from 'react-router'
import { formatDate } from '~/lib/format'
import { ACCESS_RULE, type ListingVersion } from '~/lib/releases'

type Version = Omit<ListingVersion, 'publishedAt'> & { publishedAt: Date | string }

/**
 * A listing's versions, newest first (issue 30): GitHub releases of its repository or the seller's
 * version notes. Notes are plain text (a release's Markdown is shown as written).
 */
export function Changelog({ versions, headingLevel = 'h2' }: { versions: Version[]; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel
  return (
    <section id="changelog" aria-labelledby="changelog-heading" className="grid gap-3">
      <Heading id="changelog-heading" className="text-lg font-semibold">
        Changelog
      </Heading>
      {versions.length === 0 ? (
        <p className="text-sm text-muted-foreground">No versions published yet.</p>
      ) : (
        <ol className="grid gap-4">
          {versions.map((version) => (
            <li key={version.id} className="grid gap-1 border-l-2 pl-3">
              <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                <span className="font-semibold [overflow-wrap:anywhere]">{version.version}</span>
                {version.name ? <span className="[overflow-wrap:anywhere]">{version.name}</span> : null}
                <span className="text-muted-foreground">
                  <time dateTime={new Date(version.publishedAt).toISOString()}>{formatDate(version.publishedAt)}</time>
                  {version.source === 'github' ? ' · GitHub release' : ' · Version note'}
                </span>
              </p>
              {version.notes ? (
                <p className="text-sm whitespace-pre-line [overflow-wrap:anywhere]">{version.notes}</p>
              ) : (
                <p className="text-sm text-muted-foreground">No notes.</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The latest version in the listing's header: "Version 1.2.0 · Nov 3, 2026" and its notes. */
export function LatestVersion({ version }: { version: Version }) {
  return (
    <section className="grid gap-1 rounded-lg border p-4 text-sm" aria-labelledby="latest-version-heading">
      <h2 id="latest-version-heading" className="font-semibold">
        Latest version: <span className="[overflow-wrap:anywhere]">{version.version}</span>
        {version.name ? <span className="font-normal [overflow-wrap:anywhere]"> — {version.name}</span> : null}
      </h2>
      <p className="text-muted-foreground">
        Published <time dateTime={new Date(version.publishedAt).toISOString()}>{formatDate(version.publishedAt)}</time> ·{' '}
        <a href="#changelog" className="text-primary underline underline-offset-4">
          Changelog
        </a>
      </p>
      {version.notes ? <p className="line-clamp-6 whitespace-pre-line [overflow-wrap:anywhere]">{version.notes}</p> : null}
    </section>
  )
}

/** What a buyer keeps after the sale and what a refund removes (ACCESS_RULE), beside Buy Now. */
export function AccessRule({ verified }: { verified: boolean }) {
  const rule = ACCESS_RULE[verified ? 'github' : 'manual']
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium">What you keep after buying</summary>
      <div className="mt-2 grid gap-2 text-muted-foreground">
        <p>{rule.keep}</p>
        <p>{rule.refund}</p>
        <Link to="/terms#updates" className="w-fit text-primary underline underline-offset-4">
          Updates and access in our Terms
        </Link>
      </div>
    </details>
  )
}
