import { COUNTRIES } from '~/lib/options'
import { z } from '~/lib/zod'
import type { BankDetailsStatus, GithubDeliveryState, GithubWaitingOn } from '../../../db/schema.ts'
import type { PayoutBatch } from '../domain/payout-batch-transitions.server.ts'
import { DeliveryProofSchema, Id, Timestamp, TRANSACTION_STATUSES } from './api-answers.server.ts'

/**
 * The answers of /api/* about money (issue 29): purchases and sales as each party
 * sees them, analytics, payout statements and batches, bank details. Same rules
 * as api-answers.server.ts: strict objects, handlers wrap their value in answer().
 */

const GITHUB_DELIVERY_STATES = ['queued', 'invited', 'accepted', 'revoked', 'failed'] as const satisfies readonly GithubDeliveryState[]
const GITHUB_WAITING_ON = ['buyer_github', 'invitation_limit', 'rate_limit', 'github_error'] as const satisfies readonly GithubWaitingOn[]
const BANK_DETAILS_STATUSES = ['pending', 'approved', 'rejected'] as const satisfies readonly BankDetailsStatus[]
const PAYOUT_BATCH_STATUSES = [
  'draft',
  'approved',
  'exported',
  'sent',
  'reconciled',
  'cancelled',
] as const satisfies readonly PayoutBatch['status'][]
const PAYOUT_BATCH_KINDS = ['batch', 'single'] as const satisfies readonly PayoutBatch['kind'][]

const Cents = z.int()

/** The buyer's view of a purchase (My Purchases). */
export const PurchaseSchema = z
  .strictObject({
    id: Id,
    createdAt: Timestamp,
    amountCents: Cents,
    status: z.enum(TRANSACTION_STATUSES),
    listing: z.strictObject({ id: Id, title: z.string(), slug: z.string() }),
    seller: z.strictObject({ username: z.string() }),
    deliveryProof: z
      .strictObject({ forkUrl: z.string() })
      .nullable()
      .meta({ description: 'Only while the buyer has access (a refund ends it).' }),
    deliveredAt: Timestamp.nullable(),
    windowEndsAt: Timestamp.nullable().meta({ description: 'When the dispute window ends, for a delivered sale.' }),
    disputeReason: z.string().nullable(),
    github: z
      .strictObject({
        state: z.enum(GITHUB_DELIVERY_STATES),
        invitationUrl: z.string().nullable(),
        repositoryUrl: z.string(),
        forkUrl: z.string().nullable(),
        resent: z.boolean(),
        waitingOn: z.enum(GITHUB_WAITING_ON).nullable(),
        nextAttemptAt: Timestamp.nullable(),
        message: z.string(),
      })
      .nullable()
      .meta({ description: 'Delivery through GitHub: the invitation while delivering, then the repository and the fork.' }),
  })
  .meta({ id: 'Purchase' })

/** The seller's view of a sale: the buyer's public fields only. */
export const SellerTransactionSchema = z
  .strictObject({
    id: Id,
    createdAt: Timestamp,
    amountCents: Cents,
    applicationFeeCents: Cents,
    sellerShareCents: Cents,
    status: z.enum(TRANSACTION_STATUSES),
    deliveredAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    disputeReason: z.string().nullable(),
    deliveryProof: DeliveryProofSchema.nullable(),
    paidAt: Timestamp.nullable(),
    paymentReference: z.string().nullable(),
    listing: z.strictObject({ id: Id, title: z.string(), slug: z.string() }),
    buyer: z.strictObject({ username: z.string(), displayName: z.string(), avatarUrl: z.string().nullable() }),
  })
  .meta({ id: 'SellerTransaction' })

/** Spec §3's admin view of a transaction, plus its status. */
export const AdminTransactionSchema = z
  .strictObject({
    id: Id,
    createdAt: Timestamp,
    sellerEmail: z.string(),
    amountCents: Cents,
    applicationFeeCents: Cents,
    paidAt: Timestamp.nullable(),
    paymentReference: z.string().nullable(),
    status: z.enum(TRANSACTION_STATUSES),
  })
  .meta({ id: 'AdminTransaction' })

export const SellerAnalyticsSchema = z
  .strictObject({
    days: z.array(
      z.strictObject({
        day: z.iso.date().meta({ description: 'UTC day' }),
        views: z.int(),
        sales: z.int(),
        revenueCents: Cents.meta({ description: "The seller's share of that day's sales." }),
      }),
    ),
    totals: z.strictObject({
      views: z.int(),
      sales: z.int(),
      revenueCents: Cents,
      conversionPercent: z.number().nullable().meta({ description: 'Sales ÷ views in percent, one decimal; null without views.' }),
    }),
    balance: z
      .strictObject({ heldCents: Cents, dueCents: Cents, paidCents: Cents })
      .meta({ description: "The seller's share: in escrow, due (completed, not paid out), paid out." }),
  })
  .meta({ id: 'SellerAnalytics' })

/** One sale of a payout: its listing and how its price splits into the fee and the seller's share. */
const PayoutLineSchema = z
  .strictObject({
    transactionId: Id,
    listingTitle: z.string(),
    completedAt: Timestamp.nullable(),
    amountCents: Cents,
    applicationFeeCents: Cents,
    sellerShareCents: Cents,
  })
  .meta({ id: 'PayoutLine' })

export const PayoutStatementSchema = z
  .strictObject({
    batchId: Id,
    paidAt: Timestamp.meta({ description: 'When the transfer was recorded as sent.' }),
    bankReference: z.string(),
    status: z.enum(['sent', 'reconciled']),
    amountCents: Cents,
    feeCents: Cents,
    payoutCents: Cents,
    lines: z.array(PayoutLineSchema),
  })
  .meta({ id: 'PayoutStatement' })

/** What both answers about a payout batch say of it: its kind, state, total and the time of each step. */
const PAYOUT_BATCH_FIELDS = {
  id: Id,
  kind: z.enum(PAYOUT_BATCH_KINDS),
  status: z.enum(PAYOUT_BATCH_STATUSES),
  currency: z.string(),
  totalCents: Cents,
  preparedAt: Timestamp,
  preparedBy: Id,
  approvedAt: Timestamp.nullable(),
  exportedAt: Timestamp.nullable(),
  sentAt: Timestamp.nullable(),
  bankReference: z.string().nullable(),
  reconciledAt: Timestamp.nullable(),
  cancelledAt: Timestamp.nullable(),
  cancelReason: z.string().nullable(),
  xmlSha256: z.string().nullable(),
  csvSha256: z.string().nullable(),
}

/** A payout batch as the admins review it: its payees (accounts masked) and their sales. */
export const PayoutBatchViewSchema = z
  .strictObject({
    ...PAYOUT_BATCH_FIELDS,
    preparedByEmail: z.string(),
    approvedByEmail: z.string().nullable(),
    payees: z.array(
      z.strictObject({
        position: z.int(),
        endToEndId: z.string(),
        sellerId: Id,
        sellerEmail: z.string(),
        amountCents: Cents,
        country: z.string(),
        accountHolder: z.string(),
        bankName: z.string(),
        account: z.string().meta({ description: 'Masked to its last four characters.' }),
        sharedAccountWith: z.array(z.string()).meta({ description: 'Other sellers whose approved details name this account.' }),
        lines: z.array(PayoutLineSchema),
      }),
    ),
  })
  .meta({ id: 'PayoutBatchView' })

/** A payout batch's record after one of its steps (prepare, approve, export, sent, reconcile, cancel). */
export const PayoutBatchSchema = z
  .strictObject({
    ...PAYOUT_BATCH_FIELDS,
    approvedBy: Id.nullable(),
    exportedBy: Id.nullable(),
    sentBy: Id.nullable(),
    reconciledBy: Id.nullable(),
    cancelledBy: Id.nullable(),
    debtorName: z.string().nullable().meta({ description: "The platform's paying account, fixed at export." }),
    debtorIban: z.string().nullable(),
    debtorBic: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'PayoutBatch' })

export const PayoutBatchAnswerSchema = z.strictObject({ message: z.string(), batch: PayoutBatchSchema })

/** What a new batch would pay one seller, or why the seller is left out. */
export const PayoutDueSchema = z
  .strictObject({
    sellerId: Id,
    sellerEmail: z.string(),
    sales: z.int(),
    amountCents: Cents,
    blocker: z.string().nullable().meta({ description: 'Why the seller cannot be in a batch now; null when they can.' }),
  })
  .meta({ id: 'PayoutDue' })

const bankDetailsFields = {
  country: z.enum(COUNTRIES),
  accountHolder: z.string(),
  bankName: z.string(),
  sortCode: z.string().nullable(),
  routingNumber: z.string().nullable(),
  swift: z.string().nullable(),
  status: z.enum(BANK_DETAILS_STATUSES),
  approved: z.boolean(),
  approvedAt: Timestamp.nullable(),
  rejectedAt: Timestamp.nullable(),
  rejectionReason: z.string().nullable(),
  requestedAt: Timestamp,
  version: z.int().meta({ description: "What an admin's approve or reject names (bumped by every change)." }),
  needsTwoApprovals: z.boolean().meta({ description: 'A change of approved details: two different admins approve it.' }),
  firstApprovedAt: Timestamp.nullable(),
}

/** The seller's bank details with the account number and IBAN masked to their last four (`•••• 1234`). */
export const MaskedBankDetailsSchema = z
  .strictObject({
    ...bankDetailsFields,
    accountNumber: z
      .string()
      .regex(/^•••• [0-9A-Z]{4}$/)
      .nullable(),
    iban: z
      .string()
      .regex(/^•••• [0-9A-Z]{4}$/)
      .nullable(),
  })
  .meta({ id: 'MaskedBankDetails' })

/** Bank details waiting for an admin: the full numbers, who gave the first approval, and accounts shared with other sellers. */
export const PendingBankDetailsSchema = z
  .strictObject({
    id: Id.meta({ description: "The seller's user id." }),
    email: z.string(),
    bankDetails: z.strictObject({
      ...bankDetailsFields,
      accountNumber: z.string().nullable(),
      iban: z.string().nullable(),
      firstApprovedBy: Id.nullable(),
    }),
    sharedAccountWith: z.array(z.string()),
  })
  .meta({ id: 'PendingBankDetails' })

export const BankDetailsChangeAnswerSchema = z.strictObject({ message: z.string(), bankDetails: MaskedBankDetailsSchema })
