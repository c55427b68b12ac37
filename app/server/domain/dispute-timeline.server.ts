import { checksSentence } from '~/lib/commit-checks'
import { formatDateTime } from '~/lib/format'
import { shortSha } from '~/lib/github'
import type { AuditActorRole } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { getAdminTransaction, type AdminTransaction } from './admin.server.ts'
import { AppError } from './errors.server.ts'
import { githubEvidence, type GithubEvidence } from './github-views.server.ts'
import { ADMIN_READ_ACTION, auditAdminRead, threadMessages } from './sale-messages.server.ts'

/**
 * The dispute timeline (issue 18, docs/decisions/019): one chronological list
 * assembled from what the system recorded about a sale — never typed in by
 * anyone — each entry naming where it comes from:
 *
 * - 'stripe'          audit rows written by Stripe's verified webhook (payment, refund)
 * - 'github-webhook'  audit rows of GitHub's webhooks (invitation accepted by `member`, a `fork`)
 * - 'github'          what the GitHub App did or read (invitations sent, access checked by polling,
 *                     the commit at listing and at delivery, from the delivery record)
 * - 'github-checks'   what GitHub's checks said of the listed and of the delivered commit, each
 *                     reading at the time it was read (issue 30, decision 034)
 * - 'audit'           the parties', the admins' and the platform's actions (deliver, confirm,
 *                     dispute with its reason, release, refund requests), from the audit log
 * - 'message'         the thread between buyer and seller
 * - 'sale'            the sale row itself (when checkout opened)
 *
 * Entries are ordered by time; entries at the same instant keep the order the
 * sale lived them (SOURCE_ORDER, then their own sequence).
 */

export type TimelineSource = 'sale' | 'stripe' | 'github' | 'github-checks' | 'github-webhook' | 'audit' | 'message'

export const SOURCE_LABELS: Record<TimelineSource, string> = {
  sale: 'Sale record',
  stripe: 'Stripe webhook (audit log)',
  github: 'GitHub (delivery record)',
  'github-checks': 'GitHub checks (reading)',
  'github-webhook': 'GitHub webhook (audit log)',
  audit: 'Audit log',
  message: 'Message',
}

export interface TimelineEntry {
  /** Unique within the timeline (source and row). */
  key: string
  at: Date
  source: TimelineSource
  title: string
  /** Who did it: "@ada (seller)", "Stripe", "GitHub", "system", "admin@…". */
  actor: string
  /** Free text recorded with it: a reason, a message's body, a link (always shown as text). */
  detail: string | null
  /** Short facts: a commit, a state change, a fork URL. */
  facts: { label: string; value: string }[]
}

/**
 * How a dispute ended (issue 26.7), read from the audit log: the row that took the sale out of
 * `disputed`, and for a refund the admin's claim before it (who decided and why; Stripe only
 * confirms the money went back). Null while the sale is still disputed.
 */
export interface DisputeDecision {
  outcome: 'released' | 'refunded'
  /** When it was decided: the release, or the admin's refund claim (else the provider's refund). */
  at: Date
  /** "admin@forkmarket.dev", or "Stripe" for a refund made at the payment provider. */
  by: string
  reason: string | null
  /** A refund: when the provider confirmed it (the sale became refunded). */
  refundedAt: Date | null
}

export interface DisputeTimeline {
  sale: AdminTransaction
  github: GithubEvidence | null
  entries: TimelineEntry[]
  decision: DisputeDecision | null
}

const ACTION_TITLES: Record<string, string> = {
  payment_succeeded: 'Payment received',
  payment_held: 'Payment held: the amount or currency did not match',
  payment_failed: 'Payment failed',
  payment_canceled: 'Payment canceled',
  checkout_canceled: 'Checkout canceled',
  deliver: 'Seller delivered the fork',
  instant_delivery: 'Private link released at payment (instant delivery)',
  github_delivery_started: 'GitHub delivery started',
  github_invitation_queued: 'GitHub invitation queued',
  github_invitation_sent: 'GitHub invitation sent',
  github_invitation_resent: 'GitHub invitation sent again',
  access_confirmed: 'Invitation accepted: buyer has access',
  fork_recorded: 'Buyer forked the repository',
  github_access_kept: 'GitHub access kept',
  github_access_revoked: 'GitHub access revoked',
  delivery_failed: 'Delivery failed: sent to the admins',
  confirm_receipt: 'Buyer confirmed receipt',
  auto_confirm: 'Confirmed automatically at the end of the window',
  dispute: 'Buyer reported a problem',
  release: 'Admin released the funds to the seller',
  refund_requested: 'Admin requested a refund',
  refund_failed: 'Refund request failed at the payment provider',
  refunded: 'Refunded',
  refund_recorded: 'Refund accepted by the payment provider',
  refund_unapplied: 'Refunded after the seller was paid out: needs manual handling',
  partial_refund: 'Partially refunded',
  duplicate_payment_refund: 'Second payment by the buyer: refunded',
  payment_intent_attached: 'Payment started at Stripe',
  payout_recorded: 'Seller paid out',
  review_removed: 'Review removed',
}

/** Order of sources at the same instant: how a sale lives them. */
const SOURCE_ORDER: Record<TimelineSource, number> = {
  sale: 0,
  stripe: 1,
  github: 2,
  'github-checks': 3,
  'github-webhook': 4,
  audit: 5,
  message: 6,
}

function sourceOfAudit(row: { actorRole: AuditActorRole; action: string; metadata: Record<string, unknown> | null }): TimelineSource {
  if (row.actorRole === 'provider') return 'stripe'
  if (row.action === 'fork_recorded') return 'github-webhook'
  if (row.action === 'access_confirmed') return row.metadata?.confirmedBy === 'poll' ? 'github' : 'github-webhook'
  if (row.action.startsWith('github_')) return 'github'
  return 'audit'
}

function factsOfAudit(row: { action: string; fromState: string | null; toState: string | null; metadata: Record<string, unknown> | null }) {
  const facts: { label: string; value: string }[] = []
  if (row.fromState && row.toState && row.fromState !== row.toState)
    facts.push({ label: 'Status', value: `${row.fromState} → ${row.toState}` })
  const meta = row.metadata ?? {}
  if (typeof meta.forkUrl === 'string' && meta.forkUrl) facts.push({ label: 'Fork', value: meta.forkUrl })
  if (typeof meta.headSha === 'string') facts.push({ label: 'Commit at delivery', value: shortSha(meta.headSha) })
  if (typeof meta.listedSha === 'string') facts.push({ label: 'Commit at listing', value: shortSha(meta.listedSha) })
  if (typeof meta.login === 'string') facts.push({ label: 'GitHub account', value: `@${meta.login}` })
  if (typeof meta.paymentReference === 'string') facts.push({ label: 'Reference', value: meta.paymentReference })
  return facts
}

/**
 * The timeline of a sale that is or was disputed (404 for a missing sale, 409 for one never
 * disputed): open, or decided and read only, with the decision. Reading it reads the thread:
 * audited like the thread.
 */
export async function getDisputeTimeline(saleId: string, adminId: string, now = new Date()): Promise<DisputeTimeline> {
  const sale = await getAdminTransaction(saleId)
  if (!sale) throw new AppError(404, 'Sale not found')
  if (sale.status !== 'disputed' && !sale.disputedAt) throw new AppError(409, 'This sale was never disputed')
  await auditAdminRead(sale.id, adminId, 'dispute timeline', now)
  return { sale, ...(await assembleTimeline(sale)) }
}

interface DecisionAuditRow {
  createdAt: Date
  actorRole: AuditActorRole
  action: string
  fromState: string | null
  toState: string | null
  reason: string | null
  actorEmail: string | null
}

/** The decision of a dispute from its audit rows (oldest first); null while it is open. */
export function disputeDecision(audit: readonly DecisionAuditRow[]): DisputeDecision | null {
  const end = audit.find((row) => row.fromState === 'disputed' && (row.toState === 'completed' || row.toState === 'refunded'))
  if (!end) return null
  if (end.toState === 'completed') {
    return { outcome: 'released', at: end.createdAt, by: end.actorEmail ?? end.actorRole, reason: end.reason, refundedAt: null }
  }
  // Refunded: the admin's claim (asked of Stripe) holds who and why; none when it was refunded in Stripe's dashboard.
  const claim = audit.findLast((row) => row.action === 'refund_requested' && row.createdAt <= end.createdAt)
  return claim
    ? { outcome: 'refunded', at: claim.createdAt, by: claim.actorEmail ?? 'admin', reason: claim.reason, refundedAt: end.createdAt }
    : { outcome: 'refunded', at: end.createdAt, by: 'Stripe', reason: end.reason, refundedAt: end.createdAt }
}

/** The entries of one sale, from every source, in order (tests call it on fixed data). */
export async function assembleTimeline(sale: Pick<AdminTransaction, 'id' | 'createdAt' | 'buyerUsername' | 'sellerUsername'>) {
  const [audit, messages, evidence] = await Promise.all([
    db
      .selectFrom('auditLog')
      .leftJoin('users', 'users.id', 'auditLog.actorId')
      .select([
        'auditLog.id',
        'auditLog.createdAt',
        'auditLog.actorRole',
        'auditLog.action',
        'auditLog.fromState',
        'auditLog.toState',
        'auditLog.reason',
        'auditLog.metadata',
        'users.username as actorUsername',
        'users.email as actorEmail',
      ])
      .where('auditLog.entityType', '=', 'transaction')
      .where('auditLog.entityId', '=', sale.id)
      // Who read the thread is in the audit log, but is not part of the sale's story.
      .where('auditLog.action', '<>', ADMIN_READ_ACTION)
      .orderBy('auditLog.id')
      .execute(),
    threadMessages(sale.id),
    githubEvidence([sale.id]),
  ])
  const github = evidence.get(sale.id) ?? null
  const decision = disputeDecision(audit)
  const entries: (TimelineEntry & { seq: number })[] = []
  let seq = 0
  const add = (entry: TimelineEntry) => entries.push({ ...entry, seq: seq++ })

  add({
    key: `sale:${sale.id}`,
    at: new Date(sale.createdAt),
    source: 'sale',
    title: 'Checkout opened',
    actor: `@${sale.buyerUsername} (buyer)`,
    detail: null,
    facts: [],
  })

  for (const row of audit) {
    const source = sourceOfAudit(row)
    const actor =
      row.actorRole === 'provider'
        ? 'Stripe'
        : row.actorRole === 'system'
          ? source === 'audit'
            ? 'Forkmarket'
            : 'GitHub'
          : `${row.actorUsername ? `@${row.actorUsername}` : 'unknown'} (${row.actorRole})`
    add({
      key: `audit:${row.id}`,
      at: row.createdAt,
      source,
      title: ACTION_TITLES[row.action] ?? row.action.replaceAll('_', ' '),
      actor,
      detail: row.reason,
      facts: factsOfAudit(row),
    })
  }

  // Each entry stands at the time of an event on the platform; a commit's own date is a fact
  // labelled as such, never the entry's time (issue 26.10).
  if (github) {
    if (github.listedSha && github.listedAt) {
      add({
        key: 'github:listed',
        at: github.listedAt,
        source: 'github',
        title: 'Commit recorded with the listing (the code the buyer paid for)',
        actor: 'GitHub',
        detail: null,
        facts: [
          { label: 'Repository', value: github.repository },
          { label: 'Commit', value: github.listedSha },
        ],
      })
    }
    if (github.deliveredSha && github.acceptedAt) {
      add({
        key: 'github:delivered',
        at: github.acceptedAt,
        source: 'github',
        title: 'Commit read when access was confirmed (the code delivered)',
        actor: 'GitHub',
        detail: github.summary,
        facts: [
          { label: 'Commit', value: github.deliveredSha },
          ...(github.deliveredShaDate ? [{ label: 'Commit date', value: github.deliveredShaDate.toISOString() }] : []),
        ],
      })
    }
  }

  // Issue 30: what GitHub's checks said at the listed commit and at the delivered commit, each at the
  // time it was read (a reading is never rewritten: it is what was true then).
  if (github) {
    for (const [key, reading, subject, sha] of [
      ['listed', github.checks.listed, 'the listed commit', github.listedSha],
      ['delivered', github.checks.delivered, 'the delivered commit', github.deliveredSha],
    ] as const) {
      if (!reading) continue
      add({
        key: `github:checks-${key}`,
        at: new Date(reading.readAt),
        source: 'github-checks',
        title: checksSentence(reading, subject),
        actor: 'GitHub',
        detail: null,
        facts: [...(sha ? [{ label: 'Commit', value: sha }] : []), { label: 'Checks read', value: formatDateTime(reading.readAt) }],
      })
    }
  }

  // Decided: the admin reads the thread only while a sale is disputed (decision 019), so what the
  // parties wrote after the decision stays theirs.
  for (const message of messages) {
    if (decision && message.createdAt > decision.at) continue
    const role = message.authorId === message.buyerId ? 'buyer' : 'seller'
    add({
      key: `message:${message.id}`,
      at: message.createdAt,
      source: 'message',
      title: `Message from the ${role}`,
      actor: `@${message.username} (${role})`,
      detail: message.body,
      facts: [],
    })
  }

  entries.sort((a, b) => a.at.getTime() - b.at.getTime() || SOURCE_ORDER[a.source] - SOURCE_ORDER[b.source] || a.seq - b.seq)
  return { github, decision, entries: entries.map(({ seq: _seq, ...entry }) => entry) }
}
