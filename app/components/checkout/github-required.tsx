import { GitFork } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'

export const GITHUB_REQUIRED_TITLE = 'Connect your GitHub account first'

/**
 * Checkout of a listing delivered through GitHub by a buyer with no GitHub
 * identity yet (signed in with Google, issue 16): what to do, before any
 * payment. The button is a plain link to the App's user authorization, which
 * comes back to this checkout.
 */
export function GithubRequired({ summary, authorizeUrl }: { summary: { title: string; sellerUsername: string }; authorizeUrl: string }) {
  return (
    <Card className="max-w-xl" aria-labelledby="github-required-title">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="github-required-title">{GITHUB_REQUIRED_TITLE}</h2>
        </CardTitle>
        <CardDescription>
          &ldquo;{summary.title}&rdquo; by @{summary.sellerUsername} is delivered through GitHub. No payment has been taken.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        <ol className="grid list-decimal gap-1 ps-5">
          <li>Connect the GitHub account that should receive the code: GitHub asks you to authorize Forkmarket.</li>
          <li>You come back here and pay by card.</li>
          <li>You are invited to the seller’s private repository with read access; accept the invitation and fork it.</li>
        </ol>
        <p className="text-muted-foreground">
          Forkmarket only learns your GitHub user name and id. Your payment stays in escrow until you have access.
        </p>
        <div className="flex flex-wrap gap-3">
          <Button asChild>
            <a href={authorizeUrl}>
              <GitFork aria-hidden="true" />
              Connect GitHub account
            </a>
          </Button>
          <Button asChild variant="outline">
            <Link to="/marketplace">Back to Marketplace</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
