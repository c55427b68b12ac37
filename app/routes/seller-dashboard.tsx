import { parseWithZod } from '@conform-to/zod/v4'
import { DollarSign, LayoutGrid, Plus, Wallet } from 'lucide-react'
import { data, Link } from 'react-router'
import { BankAlert } from '~/components/dashboard/bank-alert'
import { DeliverSchema } from '~/components/dashboard/deliver-form'
import { GithubAlerts } from '~/components/dashboard/github-alerts'
import { PayoutStatements, SellerAnalyticsCard } from '~/components/dashboard/seller-analytics'
import { SellerListingsTable } from '~/components/dashboard/seller-listings-table'
import { SellerTransactionsTable } from '~/components/dashboard/seller-transactions-table'
import { SetupChecklist } from '~/components/dashboard/setup-checklist'
import { StatCard } from '~/components/dashboard/stat-card'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { formatCents } from '~/lib/money'
import { sellerSetupSteps } from '~/lib/seller-setup'
import { z } from '~/lib/zod'
import { isAppError } from '~/server/domain/errors.server'
import { deliverSale } from '~/server/domain/escrow-actions.server'
import { GITHUB_INSTALL_PATH, githubPath } from '~/server/domain/github-accounts.server'
import { salesChecksViews } from '~/server/domain/github-checks.server'
import { sellerGithubStatus } from '~/server/domain/github-listing-sources.server'
import { setListingVisibility } from '~/server/domain/listings.server'
import { sellerTakedowns } from '~/server/domain/moderation.server'
import { getSellerAnalytics, listPayoutStatements } from '~/server/domain/seller-analytics.server'
import { getSellerDashboard } from '~/server/domain/seller-dashboard.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/seller-dashboard'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.saleAction })]

const SetVisibilitySchema = z.object({
  intent: z.literal('set-visibility'),
  listingId: z.string(),
  visible: z.enum(['true', 'false']).transform((value) => value === 'true'),
})

const SellerDashboardActionSchema = z.discriminatedUnion('intent', [SetVisibilitySchema, DeliverSchema])

// Served at /seller/dashboard and /seller-dashboard (two route ids, one module).
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const [dashboard, github, analytics, statements, takedowns] = await Promise.all([
    getSellerDashboard(user.id),
    sellerGithubStatus(user.id),
    // Issue 19: the 30-day chart, the balance, and one statement per payout received.
    getSellerAnalytics(user.id),
    listPayoutStatements(user.id),
    // Issue 30: listings Forkmarket took down offer their takedown, not the switch.
    sellerTakedowns(user.id),
  ])
  // Issue 30: a disputed sale shows what GitHub's checks said at the listed and the delivered commit.
  const checks = await salesChecksViews(dashboard.transactions.filter((t) => t.status === 'disputed').map((t) => t.id))
  return {
    ...dashboard,
    checks: Object.fromEntries(checks),
    takedowns: Object.fromEntries(takedowns.map((t) => [t.listingId, { id: t.id, status: t.status }])),
    analytics,
    statements,
    // Issue 16: "Reconnect GitHub" (listings hidden for a lost repository) and invitations waiting on GitHub's limits.
    github: { lostAccess: github.lostAccess, waitingInvitations: github.waitingInvitations },
    // Issue 26.13: the new seller's setup checklist (hidden once every step is done).
    setup: sellerSetupSteps({
      bio: user.bio,
      avatarUrl: user.avatarUrl,
      githubConnected: github.installations.length > 0,
      bankStatus: dashboard.bankStatus,
      listingCount: dashboard.listings.length,
    }),
    reconnectUrl: githubPath(GITHUB_INSTALL_PATH, new URL(request.url).pathname),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const here = new URL(request.url).pathname
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: SellerDashboardActionSchema })
  if (submission.status !== 'success') {
    // The row's form shows its own errors (several deliver forms share this action).
    const targetId = String(formData.get('transactionId') ?? formData.get('listingId') ?? '')
    return data({ intent: String(formData.get('intent') ?? ''), targetId, result: submission.reply() }, { status: 400 })
  }
  const input = submission.value

  if (input.intent === 'set-visibility') {
    // Throws a 404 unless the listing is the seller's own.
    const listing = await setListingVisibility({ listingId: input.listingId, sellerId: user.id, visible: input.visible })
    return redirectWithToast(here, {
      title: listing.visible ? 'Listing is now active' : 'Listing hidden',
      description: listing.visible
        ? `“${listing.title}” is visible in the marketplace.`
        : `“${listing.title}” no longer appears in the marketplace.`,
    })
  }

  try {
    await deliverSale({ transactionId: input.transactionId, sellerId: user.id, forkUrl: input.forkUrl })
  } catch (error) {
    if (!isAppError(error)) throw error
    return data(
      { intent: input.intent, targetId: input.transactionId, result: submission.reply({ formErrors: [error.message] }) },
      { status: error.status },
    )
  }
  return redirectWithToast(here, {
    title: 'Sale delivered',
    description: `The buyer can now open their fork; the ${DISPUTE_WINDOW_HOURS}-hour window to confirm receipt has started.`,
  })
}

export default function SellerDashboard({ loaderData }: Route.ComponentProps) {
  const { stats, listings, transactions, bankAlert, bankStatus, github, reconnectUrl, setup, notForSale } = loaderData
  return (
    <div className="mx-auto grid max-w-6xl grid-cols-1 gap-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Seller Dashboard</h1>
          <p className="mt-1 text-sm text-muted-foreground">Your listings, sales and payouts.</p>
        </div>
        <Button asChild>
          <Link to="/create-listing">
            <Plus aria-hidden="true" />
            Create Listing
          </Link>
        </Button>
      </div>

      {bankAlert ? <BankAlert kind={bankAlert} bankStatus={bankStatus} pendingSales={stats.pendingSales > 0} /> : null}
      <GithubAlerts status={github} reconnectUrl={reconnectUrl} />
      {setup.some((step) => !step.done) ? <SetupChecklist steps={setup} /> : null}

      <section aria-label="Summary" className="grid gap-4 sm:grid-cols-3">
        <StatCard
          title="Total Sales"
          value={formatCents(stats.totalSalesCents)}
          description="Paid by buyers, refunds excluded"
          icon={<DollarSign />}
        />
        <StatCard
          title="Pending payouts"
          value={formatCents(stats.pendingPayoutCents)}
          description="Your share of sales not yet paid out"
          icon={<Wallet />}
        />
        <StatCard
          title="Active Listings"
          value={String(stats.activeListings)}
          description="Visible in the marketplace"
          icon={<LayoutGrid />}
        />
      </section>

      <SellerAnalyticsCard analytics={loaderData.analytics} />

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Your Listings</h2>
          </CardTitle>
          <CardDescription>Hide a listing to take it off the marketplace without deleting it.</CardDescription>
        </CardHeader>
        <CardContent>
          {listings.length === 0 ? (
            <div className="flex flex-col items-center gap-3 py-10 text-center">
              <p className="text-muted-foreground">You haven't created any listings yet</p>
              <Button asChild>
                <Link to="/seller/create">Create Your First Listing</Link>
              </Button>
            </div>
          ) : (
            <SellerListingsTable listings={listings} notForSale={notForSale} takedowns={loaderData.takedowns} />
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Recent Transactions</h2>
          </CardTitle>
          <CardDescription>
            Your latest sales. Sales of listings with a source repository are delivered through GitHub; deliver the others by sending the
            buyer’s fork link. Funds are released when the buyer confirms receipt (or after {DISPUTE_WINDOW_HOURS} hours).
          </CardDescription>
        </CardHeader>
        <CardContent>
          {transactions.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">No transactions yet</p>
          ) : (
            <SellerTransactionsTable
              transactions={transactions}
              waitingInvitations={Object.fromEntries(github.waitingInvitations.map((w) => [w.transactionId, w.message]))}
              checks={loaderData.checks}
            />
          )}
        </CardContent>
      </Card>

      <PayoutStatements statements={loaderData.statements} />
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Seller Dashboard · Forkmarket' }]
}
