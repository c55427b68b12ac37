import { Clock, GitFork, TriangleAlert } from 'lucide-react'
import { Link } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { formatDateTime } from '~/lib/format'
import type { SellerGithubStatus } from '~/server/domain/github-listing-sources.server'

/**
 * The seller dashboard's GitHub notices (issue 16): "Reconnect GitHub" when
 * the App lost access to a listed repository (uninstalled, repository removed
 * or moved: those listings are hidden and their open sales went to an admin),
 * and the invitations that wait (GitHub's limits, errors), retried on their own.
 */
export function GithubAlerts({
  status,
  reconnectUrl,
}: {
  status: Pick<SellerGithubStatus, 'lostAccess' | 'waitingInvitations'>
  reconnectUrl: string
}) {
  const { lostAccess, waitingInvitations } = status
  if (lostAccess.length === 0 && waitingInvitations.length === 0) return null
  return (
    <div className="grid gap-4">
      {lostAccess.length > 0 ? (
        <Alert variant="destructive">
          <TriangleAlert aria-hidden="true" />
          <AlertTitle>Reconnect GitHub</AlertTitle>
          <AlertDescription>
            <p>
              Forkmarket can no longer reach{' '}
              {lostAccess.length === 1 ? 'the repository of this listing' : 'the repositories of these listings'}, so{' '}
              {lostAccess.length === 1 ? 'it is' : 'they are'} hidden from the marketplace and buyers waiting for an invitation were passed
              to an admin. Reconnect the organization (or give the Forkmarket App access to the repository again), then make the listing
              visible.
            </p>
            <ul className="grid list-disc gap-1 ps-5">
              {lostAccess.map((listing) => (
                <li key={listing.listingId}>
                  <Link to={`/seller/edit/${listing.listingId}`} className="font-medium text-foreground underline underline-offset-4">
                    {listing.title}
                  </Link>
                  : {listing.reason} (<time dateTime={new Date(listing.at).toISOString()}>{formatDateTime(listing.at)}</time>)
                </li>
              ))}
            </ul>
            <Button asChild size="sm" className="mt-2">
              <a href={reconnectUrl}>
                <GitFork aria-hidden="true" />
                Reconnect GitHub
              </a>
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
      {waitingInvitations.length > 0 ? (
        <Alert>
          <Clock aria-hidden="true" />
          <AlertTitle>Invitations waiting to be sent</AlertTitle>
          <AlertDescription>
            <p>These buyers have paid; their invitation is queued and sent automatically. Nothing to do on your side.</p>
            <ul className="grid list-disc gap-1 ps-5">
              {waitingInvitations.map((invitation) => (
                <li key={invitation.transactionId}>
                  <span className="font-medium text-foreground">{invitation.listingTitle}</span>: {invitation.message}
                </li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      ) : null}
    </div>
  )
}
