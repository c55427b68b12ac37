import { Handshake, ShieldCheck, TriangleAlert } from 'lucide-react'
import { Link } from 'react-router'
import { shortSha, UNVERIFIED_DELIVERY_TITLE, VERIFIED_SOURCE_TITLE } from '~/lib/github'
import { CommitChecksLine, type ChecksReadingView } from './commit-checks-line'

/** Only the listing's seller sees which repository and commit the listing is connected to. */
export interface ListingSourceForOwner {
  fullName: string
  headSha: string | null
  /** The App lost access to it (uninstalled, repository removed): the listing is hidden until reconnected. */
  accessLost: boolean
}

/**
 * How the code reaches the buyer, shown before buying (issue 16): through
 * GitHub from a connected repository (verified), or by the seller by hand
 * (not verified). The private repository's name is never shown to visitors.
 */
export function DeliveryMethod({
  verified,
  ownerSource,
  checks,
}: {
  verified: boolean
  ownerSource?: ListingSourceForOwner | null
  /** Issue 30: the latest reading of the listed commit's checks on GitHub. */
  checks?: ChecksReadingView | null
}) {
  if (verified) {
    return (
      <div className="grid gap-1 rounded-lg border border-success/50 bg-success/5 p-3 text-sm" data-delivery="github">
        <p className="flex items-center gap-2 font-medium text-success">
          <ShieldCheck aria-hidden="true" className="size-4 shrink-0" />
          {VERIFIED_SOURCE_TITLE}
        </p>
        <p className="text-foreground/90">
          After payment you are invited to the seller’s private repository with read access and can fork it. The escrow window starts only
          once you have accepted.
        </p>
        {checks ? <CommitChecksLine reading={checks} /> : null}
        {ownerSource ? (
          <p className="text-muted-foreground [overflow-wrap:anywhere]">
            Your repository: <span className="font-medium text-foreground">{ownerSource.fullName}</span>
            {ownerSource.headSha ? (
              <>
                {' '}
                at <code className="font-mono">{shortSha(ownerSource.headSha)}</code>
              </>
            ) : null}{' '}
            (only you see this)
          </p>
        ) : null}
      </div>
    )
  }
  return (
    <div className="grid gap-1 rounded-lg border border-dashed p-3 text-sm" data-delivery="manual">
      <p className="flex items-center gap-2 font-medium">
        <Handshake aria-hidden="true" className="size-4 shrink-0" />
        {UNVERIFIED_DELIVERY_TITLE}
      </p>
      <p className="text-muted-foreground">The seller sends you a link after payment; Forkmarket cannot check what it contains.</p>
      {ownerSource?.accessLost ? (
        <p className="mt-1 flex gap-2 text-foreground/90 [overflow-wrap:anywhere]">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
          <span>
            Forkmarket lost access to your repository {ownerSource.fullName}, so this listing is hidden.{' '}
            <Link to="/profile#github-card-title" className="font-medium text-primary underline underline-offset-4">
              Reconnect GitHub
            </Link>
          </span>
        </p>
      ) : null}
    </div>
  )
}
