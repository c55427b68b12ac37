import { ExternalLink, GitFork, MailOpen } from 'lucide-react'
import type * as React from 'react'
import { cn } from '~/components/ui/cn'
import { ACCESS_STATUSES, DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import type { PurchaseGithub } from '~/server/domain/github-views.server'
import type { TransactionStatus } from '../../../db/schema.ts'

const LINK = 'font-medium text-primary underline-offset-4 hover:underline'

function OutLink({
  href,
  children,
  about,
  icon,
  nowrap = true,
}: {
  href: string
  children: string
  about: string
  icon?: React.ReactNode
  nowrap?: boolean
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={cn(LINK, nowrap && 'whitespace-nowrap')}>
      {icon}
      {children}
      <ExternalLink aria-hidden="true" className="ms-1 inline size-3" />
      <span className="sr-only"> of {about} (opens in a new tab)</span>
    </a>
  )
}

/**
 * My Purchases → Delivery (spec: a View Fork link, or Pending). Delivered
 * through GitHub (issue 16): while `delivering`, "Accept your invitation on
 * GitHub"; once access is confirmed, "View Fork" when the buyer's fork is
 * known, else "Fork on GitHub". Delivered by the seller: their link.
 */
export function DeliveryCell({
  status,
  title,
  github,
  forkUrl,
  connectGithubUrl,
}: {
  status: TransactionStatus
  title: string
  github: PurchaseGithub | null | undefined
  /** The seller's link (manual delivery), present only while the buyer has access. */
  forkUrl: string | null
  /** Where the buyer connects a GitHub account when the invitation waits for one. */
  connectGithubUrl?: string
}) {
  const hasAccess = (ACCESS_STATUSES as readonly TransactionStatus[]).includes(status)
  if (github) {
    if (status === 'delivering') {
      const invited = github.state === 'invited' && github.invitationUrl
      const needsAccount = github.state === 'queued' && github.waitingOn === 'buyer_github' && connectGithubUrl
      return (
        <div className="grid max-w-64 justify-items-start gap-1">
          {invited ? (
            <OutLink
              href={github.invitationUrl!}
              about={title}
              nowrap={false}
              icon={<MailOpen aria-hidden="true" className="me-1 inline size-4" />}
            >
              Accept your invitation on GitHub
            </OutLink>
          ) : null}
          {needsAccount ? (
            <a href={connectGithubUrl} className={LINK}>
              Connect GitHub account
            </a>
          ) : null}
          <span className="text-xs text-muted-foreground">
            {invited && !github.resent
              ? `Then fork the repository. Your ${DISPUTE_WINDOW_HOURS}-hour window starts once you have access.`
              : github.message}
          </span>
        </div>
      )
    }
    if (hasAccess && github.state === 'accepted') {
      return github.forkUrl ? (
        <OutLink href={github.forkUrl} about={title}>
          View Fork
        </OutLink>
      ) : (
        <OutLink href={github.repositoryUrl} about={title} icon={<GitFork aria-hidden="true" className="me-1 inline size-4" />}>
          Fork on GitHub
        </OutLink>
      )
    }
    if (github.state === 'revoked') return <span className="text-muted-foreground">Access removed</span>
    if (status === 'refunded') return <span className="text-muted-foreground">—</span>
    return <span className="text-muted-foreground">{github.state === 'failed' ? github.message : 'Pending'}</span>
  }
  if (forkUrl && hasAccess) {
    return (
      <OutLink href={forkUrl} about={title}>
        View Fork
      </OutLink>
    )
  }
  return <span className="text-muted-foreground">{status === 'refunded' ? '—' : 'Pending'}</span>
}
