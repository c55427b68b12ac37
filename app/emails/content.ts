import { DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { formatCents, PLATFORM_FEE_PERCENT } from '~/lib/money'
import { CONFIRM_REMINDER_HOURS_BEFORE, formatInTimeZone, type NotificationKind } from '~/lib/notifications'
import { saleMessageContent } from '~/lib/sale-message-notice'

/**
 * What each notification says (issue 17), one function per kind, used for the
 * e-mail (app/emails/notification-email.tsx renders it with React Email: HTML
 * and plain text) and for the in-app list (heading, summary, link). Amounts
 * are cents formatted by `formatCents`; links are paths (the mail makes them
 * absolute from APP_URL); times are in the recipient's time zone when known,
 * else UTC and saying so.
 */
export interface NotificationContent {
  subject: string
  heading: string
  /** One sentence: the in-app row's text and the mail's preview line. */
  summary: string
  paragraphs: string[]
  rows?: { label: string; value: string }[]
  action?: { label: string; path: string }
  /** Small print under the button (e.g. how to turn an optional mail off). */
  footnote?: string
}

export interface ContentContext {
  /** The recipient's IANA time zone; null shows UTC. */
  timeZone: string | null
}

/** What a sale's notifications carry (snapshotted when the event happens). */
export interface SaleNotice {
  saleId: string
  listingTitle: string
  amountCents: number
  feeCents: number
  sellerShareCents: number
  buyerName: string
  sellerName: string
  paidAt?: string | null
  /** When the seller is expected to deliver (the listing's timeframe), if it has one. */
  deliverBy?: string | null
  deliveryLabel?: string | null
  deliveredAt?: string | null
  windowEndsAt?: string | null
  disputeReason?: string | null
  /** dispute_resolved: how. */
  outcome?: 'released' | 'refunded'
  /** purchase_confirmed / funds_released: confirmed by the window's end rather than the buyer. */
  automatic?: boolean
  afterDispute?: boolean
  github?: { repository: string; invitationUrl?: string | null; resent?: boolean } | null
}

export interface PayoutNotice {
  batchId: string
  amountCents: number
  bankReference: string
  paidAt: string
  sales: { saleId: string; listingTitle: string; sellerShareCents: number }[]
}

export interface BankDecisionNotice {
  reason?: string | null
}

/** A reconciliation that found differences (issue 19): how many, which rules (e.g. "fee_rule: 1"). */
export interface WebhookDisabledNotice {
  endpointId: string
  url: string
  failingSince: string
  lastError: string
}

export interface ReconciliationNotice {
  runId: string
  count: number
  startedAt: string
  rules: string
}

export interface BankDigestNotice {
  date: string
  count: number
  oldestRequestedAt: string
}

export interface ReviewNotice {
  listingTitle: string
  listingSlug: string
  stars: number
  excerpt: string
}

/** Issue 30: a listing the buyer owns was taken down for copyright or malware. */
export interface TakedownNotice {
  listingTitle: string
  /** The report reason's words ("Malware or leaked secrets"). */
  category: string
  reason: string
}

/** A new version of a listing a buyer owns (issue 30): a GitHub release or the seller's version note. */
export interface UpdateNotice {
  listingTitle: string
  listingSlug: string
  version: string
  /** The release's title, when it has one besides its tag. */
  name?: string | null
  notes: string
  publishedAt: string
  source: 'github' | 'manual'
}

/** Issue 30: the seller's listing was taken down, or restored (the takedown's page is where they answer). */
export interface SellerTakedownNotice {
  takedownId: string
  listingTitle: string
  listingSlug: string
  category: string
  /** Taken down: the reason the seller sees. */
  reason: string
}

/** Issue 30: a seller answered a takedown; the admins decide again. */
export interface CounterNoticeNotice {
  listingTitle: string
  sellerName: string
  counterNotice: string
}

export interface StuckNotice extends SaleNotice {
  limitLabel: string
}

const PURCHASES = '/purchases'
const DASHBOARD = '/seller/dashboard'
const ADMIN = '/admin'
const PROFILE = '/profile'

const when = (value: string | null | undefined, ctx: ContentContext) => (value ? formatInTimeZone(value, ctx.timeZone) : null)
const escrowTerms = `Forkmarket holds your payment in escrow: the seller is paid only after you confirm receipt, or ${DISPUTE_WINDOW_HOURS} hours after delivery if you report no problem.`

function saleRows(sale: SaleNotice, view: 'buyer' | 'seller'): { label: string; value: string }[] {
  if (view === 'buyer') {
    return [
      { label: 'Item', value: sale.listingTitle },
      { label: 'Price', value: formatCents(sale.amountCents) },
      { label: `Platform fee (${PLATFORM_FEE_PERCENT}%, included)`, value: formatCents(sale.feeCents) },
      { label: 'Total charged', value: formatCents(sale.amountCents) },
    ]
  }
  return [
    { label: 'Item', value: sale.listingTitle },
    { label: 'Price', value: formatCents(sale.amountCents) },
    { label: `Platform fee (${PLATFORM_FEE_PERCENT}%)`, value: `−${formatCents(sale.feeCents)}` },
    { label: 'You receive', value: formatCents(sale.sellerShareCents) },
  ]
}

type Builder = (data: never, ctx: ContentContext) => NotificationContent

const BUILDERS: Record<NotificationKind, Builder> = {
  purchase_receipt: (sale: SaleNotice, ctx) => {
    const next = sale.github
      ? `Next: accept your GitHub invitation to ${sale.github.repository}. GitHub sends it to your GitHub account separately, and you accept it at ${sale.github.invitationUrl ?? 'GitHub'}; then fork the repository. Your ${DISPUTE_WINDOW_HOURS}-hour window starts once you have access.`
      : sale.deliverBy
        ? `Next: ${sale.sellerName} delivers by ${when(sale.deliverBy, ctx)}; we e-mail you when they do.`
        : `Next: ${sale.sellerName} delivers your fork; we e-mail you when they do.`
    return {
      subject: `Your receipt for ${sale.listingTitle}`,
      heading: 'Thank you for your purchase',
      summary: `You paid ${formatCents(sale.amountCents)} for ${sale.listingTitle}.`,
      paragraphs: [escrowTerms, next],
      rows: [...saleRows(sale, 'buyer'), ...(sale.paidAt ? [{ label: 'Paid', value: when(sale.paidAt, ctx)! }] : [])],
      action: { label: 'View My Purchases', path: PURCHASES },
    }
  },
  purchase_delivered: (sale: SaleNotice, ctx) => ({
    subject: `${sale.listingTitle} was delivered`,
    heading: 'Your purchase was delivered',
    summary: `${sale.sellerName} delivered ${sale.listingTitle}.`,
    paragraphs: [
      `Open it from My Purchases and check it works. Confirm receipt when you are happy, or report a problem by ${when(sale.windowEndsAt, ctx)}. After that the purchase is confirmed automatically and the seller is paid.`,
    ],
    action: { label: 'Open My Purchases', path: PURCHASES },
  }),
  github_invitation_sent: (sale: SaleNotice) => ({
    subject: `Your GitHub invitation to ${sale.github?.repository ?? sale.listingTitle}`,
    heading: sale.github?.resent ? 'Your invitation was sent again' : 'Your GitHub invitation is waiting',
    summary: `Accept the invitation to ${sale.github?.repository ?? sale.listingTitle} on GitHub to get ${sale.listingTitle}.`,
    paragraphs: [
      `GitHub sent your account an invitation to the repository as a read collaborator. Once you accept it, the purchase counts as delivered and your ${DISPUTE_WINDOW_HOURS}-hour window to check it starts.`,
    ],
    action: { label: 'See the invitation', path: PURCHASES },
  }),
  github_access_ready: (sale: SaleNotice, ctx) => ({
    subject: `Your access to ${sale.listingTitle} is ready`,
    heading: 'Your access is ready',
    summary: `You now have access to ${sale.github?.repository ?? sale.listingTitle} on GitHub.`,
    paragraphs: [
      `Fork the repository and check it works. Confirm receipt when you are happy, or report a problem by ${when(sale.windowEndsAt, ctx)}. After that the purchase is confirmed automatically and the seller is paid.`,
    ],
    action: { label: 'Open My Purchases', path: PURCHASES },
  }),
  confirm_reminder: (sale: SaleNotice, ctx) => ({
    subject: `${CONFIRM_REMINDER_HOURS_BEFORE} hours left to check ${sale.listingTitle}`,
    heading: `${CONFIRM_REMINDER_HOURS_BEFORE} hours left`,
    summary: `Confirm or report a problem by ${when(sale.windowEndsAt, ctx)}.`,
    paragraphs: [
      `Your purchase of ${sale.listingTitle} will be confirmed automatically at ${when(sale.windowEndsAt, ctx)} and the seller paid. Confirm or report a problem before then.`,
    ],
    action: { label: 'Confirm or report a problem', path: PURCHASES },
    footnote: 'You receive reminders because they are on in your notification settings on your profile.',
  }),
  purchase_confirmed: (sale: SaleNotice) => ({
    subject: `${sale.listingTitle}: purchase confirmed`,
    heading: 'Purchase confirmed',
    summary: sale.automatic
      ? `Your purchase of ${sale.listingTitle} was confirmed automatically: no problem was reported within ${DISPUTE_WINDOW_HOURS} hours.`
      : `You confirmed receipt of ${sale.listingTitle}.`,
    paragraphs: [`The payment of ${formatCents(sale.amountCents)} is released to ${sale.sellerName}. Thank you for buying on Forkmarket.`],
    action: { label: 'View My Purchases', path: PURCHASES },
  }),
  refund_issued: (sale: SaleNotice) => ({
    subject: `Refund of ${formatCents(sale.amountCents)} for ${sale.listingTitle}`,
    heading: 'Your refund is on its way',
    summary: `We refunded ${formatCents(sale.amountCents)} for ${sale.listingTitle}.`,
    paragraphs: [
      sale.afterDispute ? 'Your dispute was resolved in your favour.' : 'The purchase was refunded.',
      'The money goes back to the card you paid with; banks usually show it within 5–10 business days. Access to the delivery ends.',
    ],
    rows: [
      { label: 'Item', value: sale.listingTitle },
      { label: 'Refunded', value: formatCents(sale.amountCents) },
    ],
    action: { label: 'View My Purchases', path: PURCHASES },
  }),
  new_sale: (sale: SaleNotice, ctx) => ({
    subject: `New sale: ${sale.listingTitle}`,
    heading: 'You made a sale',
    summary: sale.github
      ? `${sale.buyerName} bought ${sale.listingTitle}; we invite them to ${sale.github.repository} on GitHub.`
      : sale.deliverBy
        ? `${sale.buyerName} bought ${sale.listingTitle}. Deliver by ${when(sale.deliverBy, ctx)}.`
        : `${sale.buyerName} bought ${sale.listingTitle}.`,
    paragraphs: [
      sale.github
        ? 'Delivery is automatic: keep the repository connected until the buyer accepts the invitation.'
        : sale.deliveryLabel === 'Instant'
          ? 'Your private delivery link was released to the buyer.'
          : 'Deliver the buyer’s fork from your dashboard.',
      `The money is held in escrow and released to you when the buyer confirms, or ${DISPUTE_WINDOW_HOURS} hours after delivery.`,
    ],
    rows: saleRows(sale, 'seller'),
    action: { label: 'Open your dashboard', path: DASHBOARD },
  }),
  sale_delivered: (sale: SaleNotice, ctx) => ({
    subject: sale.github ? `${sale.buyerName} accepted ${sale.listingTitle}` : `${sale.listingTitle} was delivered`,
    heading: sale.github ? 'The buyer accepted the invitation' : 'Delivered',
    summary: `${sale.listingTitle} is delivered to ${sale.buyerName}; the ${DISPUTE_WINDOW_HOURS}-hour window ends ${when(sale.windowEndsAt, ctx)}.`,
    paragraphs: ['Unless the buyer reports a problem, the funds are released to you when the window ends or the buyer confirms.'],
    action: { label: 'Open your dashboard', path: DASHBOARD },
  }),
  funds_released: (sale: SaleNotice) => ({
    subject: `Funds released: ${sale.listingTitle}`,
    heading: 'Funds released',
    summary: `${formatCents(sale.sellerShareCents)} for ${sale.listingTitle} is released to you.`,
    paragraphs: [
      sale.automatic
        ? `No problem was reported within ${DISPUTE_WINDOW_HOURS} hours, so the sale was confirmed automatically.`
        : `${sale.buyerName} confirmed receipt.`,
      'It is included in your next bank transfer; we e-mail you when the payout is recorded.',
    ],
    rows: saleRows(sale, 'seller'),
    action: { label: 'Open your dashboard', path: DASHBOARD },
  }),
  sale_refunded: (sale: SaleNotice) => ({
    subject: `Sale refunded: ${sale.listingTitle}`,
    heading: 'A sale was refunded',
    summary: `${formatCents(sale.amountCents)} for ${sale.listingTitle} was refunded to ${sale.buyerName}.`,
    paragraphs: ['This sale will not be paid out; the buyer’s access to the delivery ends.'],
    action: { label: 'Open your dashboard', path: DASHBOARD },
  }),
  payout_recorded: (payout: PayoutNotice, ctx) => ({
    subject: `Payout of ${formatCents(payout.amountCents)} sent`,
    heading: 'Payout sent',
    summary: `We sent ${formatCents(payout.amountCents)} to your bank account (reference ${payout.bankReference}).`,
    paragraphs: [
      `The bank transfer was recorded on ${when(payout.paidAt, ctx)}. It covers ${payout.sales.length === 1 ? 'this sale' : `these ${payout.sales.length} sales`}:`,
    ],
    rows: [
      ...payout.sales.map((sale) => ({ label: sale.listingTitle, value: formatCents(sale.sellerShareCents) })),
      { label: 'Total', value: formatCents(payout.amountCents) },
      { label: 'Reference', value: payout.bankReference },
    ],
    action: { label: 'Open your dashboard', path: DASHBOARD },
  }),
  new_review: (review: ReviewNotice) => ({
    subject: `New ${review.stars}-star review of ${review.listingTitle}`,
    heading: 'A buyer reviewed your listing',
    summary: `A verified buyer gave ${review.listingTitle} ${review.stars} of 5 stars.`,
    paragraphs: [`“${review.excerpt}”`, 'You can post one public reply under the review.'],
    action: { label: 'Read and reply', path: `/listing/${review.listingSlug}#reviews` },
  }),
  bank_details_approved: () => ({
    subject: 'Your bank details are approved',
    heading: 'Bank details approved',
    summary: 'Your bank details are approved: buyers can now purchase your listings and we can pay you out.',
    paragraphs: ['If you change them later, they are checked again before the next payout.'],
    action: { label: 'Open your profile', path: PROFILE },
  }),
  bank_details_rejected: (notice: BankDecisionNotice) => ({
    subject: 'Your bank details need attention',
    heading: 'Bank details rejected',
    summary: `Your bank details were rejected: ${notice.reason ?? 'no reason given'}.`,
    paragraphs: [
      'Correct them on your profile and save: they are reviewed again. Buyers cannot purchase your listings until they are approved.',
    ],
    action: { label: 'Update your bank details', path: PROFILE },
  }),
  dispute_opened: (sale: SaleNotice) => ({
    subject: `Dispute opened: ${sale.listingTitle}`,
    heading: 'A dispute was opened',
    summary: `A problem was reported with ${sale.listingTitle}; the funds stay in escrow until an admin decides.`,
    paragraphs: [
      `Reason: ${sale.disputeReason ?? 'not given'}`,
      'An admin reviews the delivery and the reason, then releases the funds to the seller or refunds the buyer. We e-mail you the decision.',
    ],
    action: { label: 'View the sale', path: PURCHASES },
  }),
  dispute_resolved: (sale: SaleNotice) => ({
    subject: `Dispute resolved: ${sale.listingTitle}`,
    heading: 'The dispute was resolved',
    summary:
      sale.outcome === 'refunded'
        ? `The dispute about ${sale.listingTitle} was resolved: ${formatCents(sale.amountCents)} is refunded to the buyer.`
        : `The dispute about ${sale.listingTitle} was resolved: the funds are released to the seller.`,
    paragraphs: [
      sale.outcome === 'refunded'
        ? 'The sale will not be paid out and the buyer’s access to the delivery ends.'
        : `${formatCents(sale.sellerShareCents)} is included in the seller’s next payout.`,
    ],
    action: { label: 'View the sale', path: PURCHASES },
  }),
  purchase_taken_down: (notice: TakedownNotice) => ({
    subject: `Taken down: ${notice.listingTitle}`,
    heading: 'A listing you bought was taken down',
    summary: `Forkmarket took ${notice.listingTitle} down: ${notice.category}.`,
    paragraphs: [
      `Reason: ${notice.reason}`,
      'Check the code you received before you use it further. If you have questions about your purchase, reply on its messages page or contact us.',
    ],
    action: { label: 'View your purchases', path: PURCHASES },
  }),
  listing_updated: (notice: UpdateNotice, ctx) => ({
    subject: `New version of ${notice.listingTitle}: ${notice.version}`,
    heading: `${notice.listingTitle} has a new version`,
    summary: `${notice.listingTitle} ${notice.version}${notice.name && notice.name !== notice.version ? ` (${notice.name})` : ''} was published ${when(notice.publishedAt, ctx)}.`,
    paragraphs: [
      notice.notes
        ? `What changed: ${notice.notes.length > 600 ? `${notice.notes.slice(0, 600)}…` : notice.notes}`
        : 'The seller gave no notes.',
      notice.source === 'github'
        ? 'It is a release of the GitHub repository you were given access to: pull it, or sync your fork, to get it.'
        : 'The seller delivers this listing by hand: ask them for the new version on your purchase’s messages page if it has not reached you.',
    ],
    action: { label: 'See the changelog', path: `/listing/${notice.listingSlug}#changelog` },
    footnote: 'You receive this because update mails are on in your notification settings on your profile.',
  }),
  listing_taken_down: (notice: SellerTakedownNotice) => ({
    subject: `Your listing was taken down: ${notice.listingTitle}`,
    heading: 'Forkmarket took your listing down',
    summary: `${notice.listingTitle} left the marketplace: ${notice.category}.`,
    paragraphs: [
      `Reason: ${notice.reason}`,
      'You can still edit it to fix what was reported. If you think the takedown is wrong, answer it once with a counter-notice: an admin decides again.',
    ],
    action: { label: 'See the takedown and answer it', path: `/seller/takedowns/${notice.takedownId}` },
  }),
  listing_restored: (notice: SellerTakedownNotice) => ({
    subject: `Your listing was restored: ${notice.listingTitle}`,
    heading: 'Your listing is back',
    summary: `Forkmarket restored ${notice.listingTitle}: it is as visible as it was before the takedown.`,
    paragraphs: ['If you had hidden it yourself before the takedown, it stays hidden until you show it again.'],
    action: { label: 'View the listing', path: `/listing/${notice.listingSlug}` },
  }),
  webhook_endpoint_disabled: (notice: WebhookDisabledNotice, ctx) => ({
    subject: `Webhook endpoint disabled: ${notice.url}`,
    heading: 'A webhook endpoint was disabled',
    summary: `${notice.url} has not accepted an event since ${when(notice.failingSince, ctx)}; we stopped sending to it.`,
    paragraphs: [
      `The last attempt failed: ${notice.lastError}`,
      'Fix the receiver, then enable the endpoint on your dashboard; failed events can be resent from its delivery log.',
    ],
    action: { label: 'Open the endpoint', path: `/seller/webhooks/${notice.endpointId}` },
  }),
  admin_dispute_opened: (sale: SaleNotice) => ({
    subject: `New dispute: ${sale.listingTitle}`,
    heading: 'A new dispute needs a decision',
    summary: `${sale.buyerName} disputed ${sale.listingTitle} (${formatCents(sale.amountCents)}) sold by ${sale.sellerName}.`,
    paragraphs: [`Reason: ${sale.disputeReason ?? 'not given'}`, 'Release the funds or refund the buyer from the admin page.'],
    action: { label: 'Open the admin page', path: ADMIN },
  }),
  admin_counter_notice: (notice: CounterNoticeNotice) => ({
    subject: `Counter-notice: ${notice.listingTitle}`,
    heading: 'A seller answered a takedown',
    summary: `${notice.sellerName} answered the takedown of ${notice.listingTitle}: decide again.`,
    paragraphs: [`“${notice.counterNotice}”`, 'Uphold the takedown or restore the listing from the moderation queue.'],
    action: { label: 'Open the moderation queue', path: '/admin/moderation' },
  }),
  admin_delivery_stuck: (sale: StuckNotice, ctx) => ({
    subject: `Delivery overdue: ${sale.listingTitle}`,
    heading: 'A delivery is overdue',
    summary: `${sale.sellerName} has not delivered ${sale.listingTitle} to ${sale.buyerName} (${sale.limitLabel}).`,
    paragraphs: [
      `Paid ${when(sale.paidAt, ctx) ?? 'earlier'}; the delivery was due by ${when(sale.deliverBy, ctx) ?? 'now'}. Contact the seller, or refund the buyer.`,
    ],
    rows: [
      { label: 'Sale', value: sale.saleId },
      { label: 'Amount', value: formatCents(sale.amountCents) },
    ],
    action: { label: 'Open the admin page', path: ADMIN },
  }),
  admin_bank_details_digest: (digest: BankDigestNotice, ctx) => ({
    subject: `${digest.count} bank ${digest.count === 1 ? 'detail waits' : 'details wait'} for approval`,
    heading: 'Bank details waiting for approval',
    summary: `${digest.count} ${digest.count === 1 ? 'seller waits' : 'sellers wait'} for their bank details to be approved; the oldest since ${when(digest.oldestRequestedAt, ctx)}.`,
    paragraphs: ['Sellers cannot sell until their bank details are approved.'],
    action: { label: 'Review bank details', path: ADMIN },
    footnote: 'You receive this daily digest because digests are on in your notification settings on your profile.',
  }),
  admin_reconciliation_exceptions: (run: ReconciliationNotice, ctx) => ({
    subject: `Reconciliation: ${run.count} ${run.count === 1 ? 'difference' : 'differences'} to look at`,
    heading: 'The books do not reconcile',
    summary: `The reconciliation of ${when(run.startedAt, ctx)} found ${run.count} ${run.count === 1 ? 'difference' : 'differences'} between the payment provider, the sales and the ledger.`,
    paragraphs: ['Each difference names its sale or seller and the rule it breaks. Find the cause before the next payout batch.'],
    rows: [{ label: 'Rules broken', value: run.rules }],
    action: { label: 'Open the reconciliation', path: `${ADMIN}?tab=reconciliation` },
  }),
}

/** The content of a notification, or null for a kind this module does not know. */
export function notificationContent(kind: string, data: Record<string, unknown>, ctx: ContentContext): NotificationContent | null {
  const build = BUILDERS[kind as NotificationKind] as
    ((data: Record<string, unknown>, ctx: ContentContext) => NotificationContent) | undefined
  if (build) return build(data, ctx)
  // New messages on a sale (issue 18): one message, or a batch the outbox merged.
  if (kind === 'sale_message') return saleMessageContent(data)
  return null
}
