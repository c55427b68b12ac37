import type { Kysely } from 'kysely'
import { splitFee } from '../../app/lib/money.ts'
import type { SeedSpec } from '../../emulators/github/server.ts'
import type { DB, DeliveryProof, GithubDeliveryProof, GithubDeliveryState, TransactionStatus } from '../schema.ts'
import { DEMO_INTENT_PREFIX, demoSaleId } from './demo-payments.ts'

/**
 * Demo data for delivery through GitHub (issue 16), in two halves that share
 * these ids: the GitHub emulator's state (`demoGithubSpec`, seeded by the
 * launcher when it starts the emulator: emulators/local-services.ts) and the
 * database's rows (`seedDemoGithub`, called by db/seed/demo.ts with the emulator's
 * answer — commit SHAs are the emulator's). Two demo sellers have connected
 * organizations and repositories; a third lost access (the "Reconnect GitHub"
 * alert); the demo buyers hold purchases in each delivery state.
 *
 * Logins are what the auth emulator gives a GitHub sign-in with the demo
 * e-mails (the part before the @), so signing in with GitHub as a demo buyer
 * is the same GitHub account.
 */

const HOUR = 3_600_000
const DAY = 24 * HOUR

export const DEMO_GITHUB = {
  users: { ada: 51_000_001, lin: 51_000_002, noah: 51_000_005, buyer: 51_000_011, jules: 51_000_012 },
  orgs: { 'launchkit-labs': 52_000_001, 'linstudio-templates': 52_000_002, 'noah-platform': 52_000_005 },
  installations: { 'launchkit-labs': 53_000_001, 'linstudio-templates': 53_000_002, 'noah-platform': 53_000_005 },
} as const

type Buyer = 'buyer' | 'jules'
type DemoState = 'invited' | 'queued' | 'accepted-forked' | 'completed' | 'expired-disputed' | 'revoked' | 'none'

interface DemoRepo {
  org: keyof typeof DEMO_GITHUB.orgs
  name: string
  id: number
  /** Index in DEMO_LISTINGS of the listing sold from it. */
  listing: number
  sale: { buyer: Buyer; state: DemoState }
}

export const DEMO_GITHUB_REPOS: readonly DemoRepo[] = [
  { org: 'launchkit-labs', name: 'invoice-tracker', id: 54_000_001, listing: 3, sale: { buyer: 'buyer', state: 'invited' } },
  { org: 'launchkit-labs', name: 'waitlist-landing', id: 54_000_002, listing: 6, sale: { buyer: 'jules', state: 'queued' } },
  { org: 'launchkit-labs', name: 'ai-writing-assistant', id: 54_000_003, listing: 37, sale: { buyer: 'jules', state: 'revoked' } },
  {
    org: 'linstudio-templates',
    name: 'agency-website-kit',
    id: 54_000_011,
    listing: 9,
    sale: { buyer: 'buyer', state: 'accepted-forked' },
  },
  { org: 'linstudio-templates', name: 'docs-starter', id: 54_000_012, listing: 11, sale: { buyer: 'buyer', state: 'completed' } },
  { org: 'linstudio-templates', name: 'svelte-ui', id: 54_000_013, listing: 12, sale: { buyer: 'jules', state: 'expired-disputed' } },
  { org: 'noah-platform', name: 'feature-flags', id: 54_000_021, listing: 34, sale: { buyer: 'buyer', state: 'none' } },
]

const fullName = (repo: DemoRepo) => `${repo.org}/${repo.name}`

const SALE_STATUS: Record<DemoState, TransactionStatus> = {
  invited: 'delivering',
  queued: 'delivering',
  'accepted-forked': 'delivered',
  completed: 'completed',
  'expired-disputed': 'disputed',
  revoked: 'refunded',
  none: 'paid',
}
const DELIVERY_STATE: Record<DemoState, GithubDeliveryState> = {
  invited: 'invited',
  queued: 'queued',
  'accepted-forked': 'accepted',
  completed: 'accepted',
  'expired-disputed': 'failed',
  revoked: 'revoked',
  none: 'queued',
}

/** The GitHub emulator's demo state (idempotent: the emulator creates what is missing). */
export function demoGithubSpec(now: Date): SeedSpec {
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
  return {
    users: [
      { login: 'ada', id: DEMO_GITHUB.users.ada, name: 'Ada Okafor', email: 'ada@forkmarket.dev' },
      { login: 'lin', id: DEMO_GITHUB.users.lin, name: 'Lin Wei', email: 'lin@forkmarket.dev' },
      { login: 'noah', id: DEMO_GITHUB.users.noah, name: 'Noah Becker', email: 'noah@forkmarket.dev' },
      { login: 'buyer', id: DEMO_GITHUB.users.buyer, name: 'Demo Buyer', email: 'buyer@forkmarket.dev' },
      { login: 'jules', id: DEMO_GITHUB.users.jules, name: 'Jules Martin', email: 'jules@forkmarket.dev' },
    ],
    organizations: [
      { login: 'launchkit-labs', id: DEMO_GITHUB.orgs['launchkit-labs'], name: 'LaunchKit Labs', owners: ['ada'] },
      { login: 'linstudio-templates', id: DEMO_GITHUB.orgs['linstudio-templates'], name: 'Lin Studio Templates', owners: ['lin'] },
      { login: 'noah-platform', id: DEMO_GITHUB.orgs['noah-platform'], name: 'Noah Platform', owners: ['noah'] },
    ],
    repositories: [
      ...DEMO_GITHUB_REPOS.map((repo) => ({
        owner: repo.org,
        name: repo.name,
        id: repo.id,
        private: true,
        collaborators: ['accepted-forked', 'completed'].includes(repo.sale.state) ? [repo.sale.buyer] : [],
        invitations:
          repo.sale.state === 'invited'
            ? [{ login: repo.sale.buyer, sentAt: ago(26 * HOUR) }]
            : repo.sale.state === 'expired-disputed'
              ? [{ login: repo.sale.buyer, sentAt: ago(8 * DAY) }]
              : [],
        forks: repo.sale.state === 'accepted-forked' ? [repo.sale.buyer] : [],
      })),
      // A personal repository: the picker shows it, disabled (organizations only).
      { owner: 'ada', name: 'side-project', private: true },
    ],
    installations: [
      { account: 'launchkit-labs', id: DEMO_GITHUB.installations['launchkit-labs'] },
      { account: 'linstudio-templates', id: DEMO_GITHUB.installations['linstudio-templates'] },
      // noah-platform: the App was uninstalled (the database remembers the installation, removed).
    ],
  }
}

/** What the launcher learned from the emulator's seed: each demo repository's head and address. */
export interface DemoGithub {
  repositories: Record<string, { id: number; headSha: string; htmlUrl: string }>
}

/**
 * The database half, on the first start (db/seed/demo.ts, inside its transaction):
 * installations, the listings' source repositories (listed at the emulator's
 * head), the buyers' GitHub accounts, and one purchase per delivery state.
 */
export async function seedDemoGithub(
  db: Kysely<DB>,
  now: Date,
  github: DemoGithub,
  ids: {
    sellers: Record<'ada' | 'lin' | 'noah', string>
    buyers: Record<Buyer, string>
    listings: Array<{ id: string; sellerId: string; priceCents: number; slug: string }>
  },
): Promise<void> {
  const at = (ms: number) => new Date(now.getTime() - ms)
  const sellerOf = { 'launchkit-labs': ids.sellers.ada, 'linstudio-templates': ids.sellers.lin, 'noah-platform': ids.sellers.noah } as const
  await db
    .insertInto('githubInstallations')
    .values(
      (Object.keys(DEMO_GITHUB.orgs) as Array<keyof typeof DEMO_GITHUB.orgs>).map((org) => ({
        id: DEMO_GITHUB.installations[org],
        userId: sellerOf[org],
        accountId: DEMO_GITHUB.orgs[org],
        accountLogin: org,
        accountType: 'Organization' as const,
        removedAt: org === 'noah-platform' ? at(2 * DAY) : null,
        createdAt: at(40 * DAY),
        updatedAt: at(2 * DAY),
      })),
    )
    .execute()
  for (const [buyer, login] of [
    ['buyer', 'buyer'],
    ['jules', 'jules'],
  ] as const) {
    await db
      .updateTable('users')
      .set({ githubUserId: DEMO_GITHUB.users[login], githubLogin: login, githubConnectedAt: at(45 * DAY) })
      .where('id', '=', ids.buyers[buyer])
      .execute()
  }

  for (const repo of DEMO_GITHUB_REPOS) {
    const known = github.repositories[fullName(repo)]
    const listing = ids.listings[repo.listing]
    if (!known || !listing) continue
    const lost = repo.org === 'noah-platform'
    await db
      .updateTable('listings')
      .set({
        githubInstallationId: DEMO_GITHUB.installations[repo.org],
        githubRepoId: repo.id,
        githubRepoFullName: fullName(repo),
        githubDefaultBranch: 'main',
        githubListedSha: known.headSha,
        githubListedAt: at(30 * DAY),
        ...(lost
          ? {
              visible: false,
              githubAccessLostAt: at(2 * DAY),
              githubAccessLostReason: 'The Forkmarket GitHub App was uninstalled from noah-platform',
            }
          : {}),
      })
      .where('id', '=', listing.id)
      .execute()
    if (repo.sale.state === 'none') continue
    await seedSale(db, now, repo, listing, known, ids.buyers[repo.sale.buyer])
  }
}

async function seedSale(
  db: Kysely<DB>,
  now: Date,
  repo: DemoRepo,
  listing: { id: string; sellerId: string; priceCents: number; slug: string },
  known: { headSha: string; htmlUrl: string },
  buyerId: string,
) {
  const at = (ms: number) => new Date(now.getTime() - ms)
  const { amountCents, applicationFeeCents } = splitFee(listing.priceCents)
  const login = repo.sale.buyer
  const githubId = DEMO_GITHUB.users[login]
  const state = repo.sale.state
  const paidAgo = {
    invited: 26 * HOUR,
    queued: 2 * HOUR,
    'accepted-forked': 30 * HOUR,
    completed: 9 * DAY,
    'expired-disputed': 15 * DAY,
    revoked: 5 * DAY,
    none: 0,
  }[state]
  const acceptedAt = state === 'accepted-forked' ? at(10 * HOUR) : state === 'completed' ? at(9 * DAY - 3 * HOUR) : null
  const forkUrl = state === 'accepted-forked' ? `${known.htmlUrl.replace(`/${fullName(repo)}`, '')}/${login}/${repo.name}` : null
  const proof: GithubDeliveryProof | null = acceptedAt
    ? {
        repository: fullName(repo),
        repositoryId: repo.id,
        repositoryUrl: known.htmlUrl,
        buyerGithubId: githubId,
        buyerLogin: login,
        invitedAt: at(paidAgo - 60_000).toISOString(),
        acceptedAt: acceptedAt.toISOString(),
        headSha: known.headSha,
        headShaDate: at(30 * DAY).toISOString(),
        listedSha: known.headSha,
        confirmedBy: 'webhook',
        forkUrl,
      }
    : null
  const deliveryProof: DeliveryProof | null = proof ? { forkUrl: forkUrl ?? known.htmlUrl, github: proof } : null
  const sale = await db
    .insertInto('transactions')
    .values({
      id: demoSaleId(listing.slug, buyerId),
      listingId: listing.id,
      sellerId: listing.sellerId,
      buyerId,
      stripePaymentIntentId: `${DEMO_INTENT_PREFIX}gh_${repo.name.slice(0, 20)}_${buyerId.slice(0, 4)}`,
      amountCents,
      applicationFeeCents,
      createdAt: at(paidAgo),
      paidAtProvider: at(paidAgo),
      status: SALE_STATUS[state],
      deliveredAt: acceptedAt,
      deliveryProof: deliveryProof ? JSON.stringify(deliveryProof) : null,
      completedAt: state === 'completed' ? at(6 * DAY) : null,
      disputedAt: state === 'expired-disputed' ? at(DAY) : null,
      disputeReason: state === 'expired-disputed' ? 'The buyer did not accept the GitHub invitation within 14 days' : null,
      refundRequestedAt: state === 'revoked' ? at(4 * DAY) : null,
      refundedAt: state === 'revoked' ? at(4 * DAY) : null,
      stripeRefundId: state === 'revoked' ? 're_demo_gh_1' : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const invitedAt = state === 'queued' ? null : at(paidAgo - 60_000)
  await db
    .insertInto('githubDeliveries')
    .values({
      transactionId: sale.id,
      installationId: DEMO_GITHUB.installations[repo.org],
      repoId: repo.id,
      repoFullName: fullName(repo),
      buyerGithubId: githubId,
      buyerLogin: login,
      state: DELIVERY_STATE[state],
      waitingOn: state === 'queued' ? 'invitation_limit' : null,
      nextAttemptAt: state === 'queued' ? new Date(now.getTime() + 40 * 60_000) : null,
      attempts: 1,
      lastError:
        state === 'queued'
          ? "GitHub's limit of 50 invitations a day on this repository was reached"
          : state === 'expired-disputed'
            ? 'The buyer did not accept the GitHub invitation within 14 days'
            : null,
      invitationUrl: invitedAt ? `${known.htmlUrl}/invitations` : null,
      invitedAt,
      resendCount: state === 'expired-disputed' ? 1 : 0,
      resentAt: state === 'expired-disputed' ? at(8 * DAY) : null,
      acceptedAt,
      listedSha: known.headSha,
      listedAt: at(30 * DAY),
      deliveredSha: acceptedAt ? known.headSha : null,
      deliveredShaDate: acceptedAt ? at(30 * DAY) : null,
      forkUrl,
      forkedAt: forkUrl ? at(9 * HOUR) : null,
      revokedAt: state === 'revoked' ? at(4 * DAY) : null,
      revocation: state === 'revoked' ? 'invitation_canceled' : null,
      createdAt: at(paidAgo),
      updatedAt: at(HOUR),
    })
    .execute()
}
