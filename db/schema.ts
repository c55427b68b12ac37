import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely'

// Kysely types of the database (snake_case columns seen as camelCase through
// CamelCasePlugin). Kept by hand beside migrations/: change both together.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>
type TextArray = ColumnType<string[], string[] | undefined, string[]>

export type TransactionStatus =
  | 'pending_payment'
  | 'paid'
  | 'delivered'
  | 'completed'
  | 'disputed'
  | 'refunded'
  | 'failed'
  /** The payment's amount or currency differs from the sale's: an admin decides (migrations/0003). */
  | 'held'

export type BankDetailsStatus = 'pending' | 'approved' | 'rejected'
export type AuditActorRole = 'buyer' | 'seller' | 'admin' | 'system' | 'provider'

export interface UsersTable {
  id: Generated<string>
  username: string
  displayName: string
  email: string
  isAdmin: Generated<boolean>
  avatarUrl: string | null
  bio: string | null
  createdAt: CreatedAt
  updatedAt: Timestamp
}

export interface BankDetailsTable {
  userId: string
  country: string
  accountHolder: string
  bankName: string
  sortCode: string | null
  routingNumber: string | null
  swift: string | null
  accountNumberEncrypted: string | null
  accountNumberLast4: string | null
  ibanEncrypted: string | null
  ibanLast4: string | null
  status: ColumnType<BankDetailsStatus, BankDetailsStatus | undefined, BankDetailsStatus>
  requestedAt: Timestamp
  approvedAt: Date | null
  approvedBy: string | null
  rejectedAt: Date | null
  rejectionReason: string | null
  updatedAt: Timestamp
  /** Bumped by every real change; approve/reject name the version the admin reviewed. */
  version: Generated<number>
}

export interface RevokedSessionsTable {
  sessionId: string
  userId: string | null
  reason: 'logout' | 'provider'
  revokedAt: Generated<Date>
  expiresAt: Date
}

export interface ListingsTable {
  id: Generated<string>
  sellerId: string
  title: string
  slug: string
  shortDescription: string
  longDescription: Generated<string>
  type: 'template' | 'full_site'
  priceCents: number
  currency: Generated<string>
  licence: 'personal' | 'commercial' | 'unlimited'
  languages: TextArray
  frameworks: TextArray
  dependencies: TextArray
  setupCallAvailable: Generated<boolean>
  setupCallDetails: string | null
  emailSupportAvailable: Generated<boolean>
  emailSupportDuration: string | null
  deliveryTimeframe: string | null
  deliveryUrl: string | null
  bespokeDevelopmentAvailable: Generated<boolean>
  bespokeDevelopmentRateCents: number | null
  additionalNotes: string | null
  demoUrl: string | null
  thumbnailUrl: string | null
  screenshots: TextArray
  tags: TextArray
  visible: Generated<boolean>
  archivedAt: Date | null
  searchVector: ColumnType<string, never, never>
  createdAt: CreatedAt
  updatedAt: Timestamp
}

export interface DeliveryProof {
  forkUrl: string
}

export interface TransactionsTable {
  id: Generated<string>
  listingId: string
  buyerId: string
  sellerId: string
  stripePaymentIntentId: string | null
  attempt: Generated<number>
  amountCents: number
  applicationFeeCents: number
  /** amount − fee, computed by the database (migration 0006): never computed elsewhere. */
  sellerShareCents: GeneratedAlways<number>
  currency: Generated<string>
  status: ColumnType<TransactionStatus, TransactionStatus | undefined, TransactionStatus>
  deliveryProof: ColumnType<DeliveryProof | null, string | null | undefined, string | null>
  failureReason: string | null
  paidAtProvider: Date | null
  deliveredAt: Date | null
  completedAt: Date | null
  disputedAt: Date | null
  disputeReason: string | null
  refundRequestedAt: Date | null
  stripeRefundId: string | null
  refundedAt: Date | null
  paymentReference: string | null
  paidAt: Date | null
  createdAt: CreatedAt
  updatedAt: Timestamp
}

export interface ProcessedEventsTable {
  id: string
  type: string
  receivedAt: CreatedAt
}

export type MoneyExceptionKind = 'payment_mismatch' | 'refund_after_payout'

/** Money that moved where the escrow cannot follow, until an admin resolves it (migrations/0003). */
export interface MoneyExceptionsTable {
  id: Generated<string>
  transactionId: string
  kind: MoneyExceptionKind
  amountCents: number
  currency: string
  details: string
  providerRef: string | null
  createdAt: CreatedAt
  resolvedAt: Date | null
  resolvedBy: string | null
}

export interface AuditLogTable {
  id: Generated<string>
  actorId: string | null
  actorRole: AuditActorRole
  action: string
  entityType: string
  entityId: string
  fromState: string | null
  toState: string | null
  reason: string | null
  metadata: ColumnType<Record<string, unknown> | null, string | null | undefined, never>
  createdAt: CreatedAt
}

/** Vocabulary of listing words for typo correction (migrations/0002_search_terms.ts, kept by triggers). */
export interface SearchTermsTable {
  term: string
  uses: number
}

export interface AppMetaTable {
  key: string
  value: ColumnType<unknown, string, string>
}

export interface DB {
  users: UsersTable
  bankDetails: BankDetailsTable
  revokedSessions: RevokedSessionsTable
  listings: ListingsTable
  transactions: TransactionsTable
  processedEvents: ProcessedEventsTable
  moneyExceptions: MoneyExceptionsTable
  auditLog: AuditLogTable
  appMeta: AppMetaTable
  searchTerms: SearchTermsTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type Listing = Selectable<ListingsTable>
export type NewListing = Insertable<ListingsTable>
export type ListingUpdate = Updateable<ListingsTable>
export type Transaction = Selectable<TransactionsTable>
export type BankDetailsRow = Selectable<BankDetailsTable>
