import { Building2, CircleCheck, ExternalLink, GitFork, User } from 'lucide-react'
import type * as React from 'react'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ORGANIZATION_ONLY_REASON, TRANSFER_REPOSITORY_DOCS_URL } from '~/lib/github'
import type { InstallationSummary } from '~/server/domain/github-listing-sources.server'

/** One account (organization or user) the seller installed the Forkmarket App on. */
export type GithubInstallationView = Pick<InstallationSummary, 'id' | 'accountLogin' | 'accountType' | 'active'>

export interface GithubCardProps {
  /** Where "Connect GitHub" goes: the App's installation page (a plain link, no JavaScript needed). */
  installUrl: string
  /** Where "Connect GitHub account" goes: the App's user authorization (OAuth). */
  authorizeUrl: string
  installations: GithubInstallationView[]
  /** The buyer's GitHub identity, from signing in with GitHub or from the authorization. */
  account: { login: string } | null
}

function ExternalTextLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 font-medium text-primary underline underline-offset-4"
    >
      {children}
      <ExternalLink aria-hidden="true" className="size-3.5" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}

/**
 * Profile → GitHub (issue 16). Selling: install the Forkmarket App on the
 * organizations whose repositories you sell. Buying: the GitHub account that
 * receives the invitation to the repositories you buy.
 */
export function GithubCard({ installUrl, authorizeUrl, installations, account }: GithubCardProps) {
  const needsReconnect = installations.some((installation) => !installation.active)
  return (
    <Card aria-labelledby="github-card-title">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="github-card-title">GitHub</h2>
        </CardTitle>
        <CardDescription>
          Code is delivered through GitHub: a buyer is invited to the seller’s private repository with read access and forks it, and the
          escrow clock starts only once the invitation is accepted.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-8">
        <section aria-labelledby="github-selling" className="grid gap-3">
          <h3 id="github-selling" className="font-semibold">
            Selling
          </h3>
          {installations.length > 0 ? (
            <ul className="grid gap-2" aria-label="Connected GitHub accounts">
              {installations.map((installation) => (
                <li key={installation.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border px-3 py-2 text-sm">
                  {installation.accountType === 'Organization' ? (
                    <Building2 aria-hidden="true" className="size-4 text-muted-foreground" />
                  ) : (
                    <User aria-hidden="true" className="size-4 text-muted-foreground" />
                  )}
                  <span className="font-medium break-all">{installation.accountLogin}</span>
                  <Badge variant={installation.accountType === 'Organization' ? 'success' : 'outline'}>
                    {installation.accountType === 'Organization' ? 'Organization' : 'Personal account'}
                  </Badge>
                  {installation.active ? null : <Badge variant="warning">Access lost: reconnect</Badge>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">
              Connect GitHub to sell a repository: buyers then get it straight from GitHub, and your listing shows that its source is
              verified.
            </p>
          )}
          <div className="grid gap-1 text-sm text-muted-foreground">
            <p>{ORGANIZATION_ONLY_REASON}</p>
            <p>
              Is your code in a personal repository? Move it to an organization first:{' '}
              <ExternalTextLink href={TRANSFER_REPOSITORY_DOCS_URL}>transferring a repository</ExternalTextLink> (GitHub Docs).
            </p>
          </div>
          <div>
            <Button asChild variant={installations.length > 0 && !needsReconnect ? 'outline' : 'default'}>
              <a href={installUrl}>
                <GitFork aria-hidden="true" />
                {needsReconnect ? 'Reconnect GitHub' : installations.length > 0 ? 'Connect another organization' : 'Connect GitHub'}
              </a>
            </Button>
          </div>
        </section>

        <section aria-labelledby="github-buying" className="grid gap-3">
          <h3 id="github-buying" className="font-semibold">
            Buying
          </h3>
          {account ? (
            <p className="flex items-start gap-2 text-sm">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
              <span>
                Purchases are delivered to <span className="font-medium break-all">@{account.login}</span> on GitHub.
              </span>
            </p>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                To buy code delivered through GitHub, connect the GitHub account that should receive the invitation. We never ask you to
                type a username: GitHub tells us who you are.
              </p>
              <div>
                <Button asChild>
                  <a href={authorizeUrl}>
                    <GitFork aria-hidden="true" />
                    Connect GitHub account
                  </a>
                </Button>
              </div>
            </>
          )}
        </section>
      </CardContent>
    </Card>
  )
}
