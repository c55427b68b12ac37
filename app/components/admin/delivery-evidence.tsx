import { CircleCheck, GitCommitHorizontal, TriangleAlert } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { CommitChecksLine } from '~/components/listing-detail/commit-checks-line'
import { formatDateTime } from '~/lib/format'
import { shortSha } from '~/lib/github'
import type { GithubEvidence } from '~/server/domain/github-views.server'

function When({ at }: { at: Date | string | null }) {
  if (!at) return <span className="text-muted-foreground">—</span>
  return <time dateTime={new Date(at).toISOString()}>{formatDateTime(at)}</time>
}

/** The buyer's fork as a row of a description list: the link in full, opened in a new tab. */
export function ForkRow({ url }: { url: string | null }) {
  return (
    <>
      <dt className="text-muted-foreground">Fork</dt>
      <dd className="break-all">
        {url ? (
          <a href={url} target="_blank" rel="noreferrer noopener" className="text-primary underline-offset-4 hover:underline">
            {url}
          </a>
        ) : (
          '—'
        )}
      </dd>
    </>
  )
}

/**
 * One commit and the times that go with it, each named for what it is: a commit's own date
 * (when it was written) is never shown as the time of an event on the platform (issue 26.10).
 */
function Commit({
  label,
  sha,
  times,
  checks,
}: {
  label: string
  sha: string | null
  times: { label: string; at: Date | string | null }[]
  /** What GitHub's checks said of this commit then (issue 30): "Checks failed at the delivered commit: 2 of 5 failed". */
  checks?: ReactNode
}) {
  return (
    <div className="grid min-w-0 gap-1 rounded-md border p-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="grid gap-0.5">
        {sha ? (
          <code className="flex items-center gap-1.5 font-mono text-sm" title={sha}>
            <GitCommitHorizontal aria-hidden="true" className="size-4 shrink-0" />
            <span className="sr-only">commit </span>
            {shortSha(sha)}
          </code>
        ) : (
          <span className="text-sm text-muted-foreground">Not recorded</span>
        )}
        {times.map((time) => (
          <span key={time.label} className="text-xs text-muted-foreground" data-evidence-time={time.label}>
            {time.label}: <When at={time.at} />
          </span>
        ))}
        {checks ? <div className="mt-1 text-xs">{checks}</div> : null}
      </dd>
    </div>
  )
}

/**
 * A dispute's evidence from GitHub (issue 16): the commit at listing time and
 * at delivery side by side, whether they are the same code, what GitHub's checks
 * said of each (issue 30), the invitation and its acceptance, and the buyer's GitHub account.
 */
export function DeliveryEvidence({ evidence, headingLevel = 4 }: { evidence: GithubEvidence; headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4'
  const same = evidence.listedSha !== null && evidence.listedSha === evidence.deliveredSha
  const headingId = useId()
  // A group, not a landmark: every dispute on the page has one.
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-3 rounded-lg bg-muted/40 p-3 text-sm">
      <Heading id={headingId} className="font-medium">
        Delivery evidence from GitHub
      </Heading>
      <p className="flex items-start gap-2" data-evidence-summary>
        {same ? (
          <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
        ) : (
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
        )}
        <span className="font-medium">{evidence.summary}</span>
      </p>
      <dl className="grid gap-2 sm:grid-cols-2">
        <Commit
          label="Listed commit (what the buyer paid for)"
          sha={evidence.listedSha}
          times={[{ label: 'Recorded with the listing', at: evidence.listedAt }]}
          checks={evidence.checks.listed ? <CommitChecksLine reading={evidence.checks.listed} /> : null}
        />
        <Commit
          label="Delivered commit (read when access was confirmed)"
          sha={evidence.deliveredSha}
          times={[{ label: 'Commit date', at: evidence.deliveredShaDate }]}
          checks={
            evidence.checks.delivered ? <CommitChecksLine reading={evidence.checks.delivered} subject="the delivered commit" /> : null
          }
        />
      </dl>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Repository</dt>
        <dd className="break-all">{evidence.repository}</dd>
        <dt className="text-muted-foreground">Buyer on GitHub</dt>
        <dd className="break-all">
          {evidence.buyerLogin ? `@${evidence.buyerLogin}` : '—'}
          {evidence.buyerGithubId ? <span className="text-muted-foreground"> (id {evidence.buyerGithubId})</span> : null}
        </dd>
        <dt className="text-muted-foreground">Invited</dt>
        <dd>
          <When at={evidence.invitedAt} />
        </dd>
        <dt className="text-muted-foreground">Accepted</dt>
        <dd>
          <When at={evidence.acceptedAt} />
        </dd>
        <ForkRow url={evidence.forkUrl} />
        {evidence.revokedAt ? (
          <>
            <dt className="text-muted-foreground">Access revoked</dt>
            <dd>
              <When at={evidence.revokedAt} />
            </dd>
          </>
        ) : null}
        {evidence.lastError ? (
          <>
            <dt className="text-muted-foreground">Last GitHub error</dt>
            <dd className="break-words">{evidence.lastError}</dd>
          </>
        ) : null}
      </dl>
    </div>
  )
}
