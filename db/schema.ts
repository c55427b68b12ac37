import type { ColumnType, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely'
import type * as Generated from './schema.generated.ts'

// The database's Kysely types are generated from the migrated schema
// (db/schema.generated.ts: `npm run db:types` after adding a migration; a test
// fails until you do). Columns are camelCase, as the CamelCasePlugin sees them.
// This file names the tables for the app and refines only what the catalog
// cannot say: the shape of JSON columns and what generated columns guarantee.

/**
 * What a delivery stores in transactions.delivery_proof (jsonb). `forkUrl` is the link the
 * buyer follows: the seller's https link for a manual delivery; for a GitHub delivery the
 * buyer's fork once a `fork` event showed it, else the repository (to fork it).
 */
export interface DeliveryProof {
  forkUrl: string
  /** Present when the delivery was verified on GitHub (issue 16). */
  github?: GithubDeliveryProof
}

/** The evidence of a GitHub delivery, written when access was confirmed. */
export interface GithubDeliveryProof {
  repository: string
  repositoryId: number
  repositoryUrl: string
  buyerGithubId: number
  buyerLogin: string
  invitedAt: string
  acceptedAt: string
  /** The head of the default branch when access was confirmed, and that commit's date. */
  headSha: string
  headShaDate: string | null
  /** The head when the buyer paid (as listed). */
  listedSha: string | null
  /** How access was confirmed: the `member` webhook or polling the collaborator endpoint. */
  confirmedBy: 'webhook' | 'poll'
  forkUrl: string | null
}

export type UsersTable = Generated.Users
export interface BankDetailsTable extends Omit<Generated.BankDetails, 'country'> {
  /** One of the CHECK's countries; the form's schema (app/lib/bank-details-schema.ts) validates it as a string. */
  country: string
}
export type RevokedSessionsTable = Generated.RevokedSessions
export type ProcessedEventsTable = Generated.ProcessedEvents
export type MoneyExceptionsTable = Generated.MoneyExceptions
/** The Forkmarket GitHub App's installations on sellers' organizations (migration 0007). */
export type GithubInstallationsTable = Generated.GithubInstallations
/** One row per GitHub-delivered sale: invitation, acceptance, proof, fork, revocation (migration 0007). */
export type GithubDeliveriesTable = Generated.GithubDeliveries
/** Vocabulary of listing words for typo correction (migrations/0002_search_terms.ts, kept by triggers). */
export type SearchTermsTable = Generated.SearchTerms
/** Verified reviews, one per completed sale (migration 0009, issue 18). */
export type ReviewsTable = Generated.Reviews
/** A message thread per sale between its buyer and seller (migration 0010, issue 18). */
export type SaleMessagesTable = Generated.SaleMessages

export interface ListingsTable extends Omit<Generated.Listings, 'searchVector' | 'deliveryTimeframe' | 'emailSupportDuration'> {
  /** Values of app/lib/options.ts (the CHECK's list), validated as strings by the listing schema. */
  deliveryTimeframe: string | null
  emailSupportDuration: string | null
  /** Computed by the database for the search; never written, and not selected into the app. */
  searchVector: ColumnType<string, never, never>
}

export interface TransactionsTable extends Omit<Generated.Transactions, 'deliveryProof' | 'sellerShareCents'> {
  deliveryProof: ColumnType<DeliveryProof | null, string | null | undefined, string | null>
  /** amount − fee, computed by the database from two NOT NULL columns (migration 0006): never computed elsewhere. */
  sellerShareCents: GeneratedAlways<number>
}

export interface AuditLogTable extends Omit<Generated.AuditLog, 'metadata'> {
  metadata: ColumnType<Record<string, unknown> | null, string | null | undefined, never>
}

export interface AppMetaTable extends Omit<Generated.AppMeta, 'value'> {
  value: ColumnType<unknown, string, string>
}

/** The double-entry ledger (migration 0011, issue 19): append-only, balanced per entry (app/server/domain/ledger.server.ts). */
export type LedgerEntriesTable = Generated.LedgerEntries
export type LedgerLinesTable = Generated.LedgerLines
/** One reconciliation's result (app/server/domain/reconciliation.server.ts): written once, never updated. */
export interface ReconciliationRunsTable extends Omit<Generated.ReconciliationRuns, 'totals' | 'exceptions'> {
  totals: ColumnType<Record<string, number>, string, never>
  exceptions: ColumnType<ReconciliationExceptionRow[], string, never>
}
/** One difference a reconciliation found: the rule it breaks, the sale and/or seller, what was expected and found. */
export interface ReconciliationExceptionRow {
  rule: string
  transactionId: string | null
  sellerId: string | null
  expectedCents: number | null
  actualCents: number | null
  details: string
}

export interface DB extends Omit<
  Generated.DB,
  'bankDetails' | 'listings' | 'transactions' | 'auditLog' | 'appMeta' | 'reconciliationRuns'
> {
  reconciliationRuns: ReconciliationRunsTable
  bankDetails: BankDetailsTable
  listings: ListingsTable
  transactions: TransactionsTable
  auditLog: AuditLogTable
  appMeta: AppMetaTable
}

/** The values the migrations' CHECK constraints allow. */
export type TransactionStatus = Selectable<TransactionsTable>['status']
export type BankDetailsStatus = Selectable<BankDetailsTable>['status']
export type AuditActorRole = Selectable<AuditLogTable>['actorRole']
export type MoneyExceptionKind = Selectable<MoneyExceptionsTable>['kind']
export type GithubDeliveryState = Selectable<GithubDeliveriesTable>['state']
export type LedgerAccount = Selectable<LedgerLinesTable>['account']
export type LedgerEntryKind = Selectable<LedgerEntriesTable>['kind']
export type GithubWaitingOn = NonNullable<Selectable<GithubDeliveriesTable>['waitingOn']>

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type Listing = Selectable<ListingsTable>
/** The listing's GitHub source (migration 0007): private to its seller, never in the public listing views. */
export type ListingGithubColumns =
  | 'githubInstallationId'
  | 'githubRepoId'
  | 'githubRepoFullName'
  | 'githubDefaultBranch'
  | 'githubListedSha'
  | 'githubListedAt'
  | 'githubAccessLostAt'
  | 'githubAccessLostReason'
/** The listing's stored rating (migration 0009): written only by app/server/domain/reviews.server.ts, read by the search and the reviews views. */
export type ListingRatingColumns = 'ratingCount' | 'ratingAverageTenths' | 'ratingScore'
/** The API client's Idempotency-Key of the request that created the listing (migration 0015): only listings.server reads it. */
export type ListingIdempotencyColumns = 'idempotencyKey' | 'idempotencyHash'
export type NewListing = Insertable<ListingsTable>
export type ListingUpdate = Updateable<ListingsTable>
export type Transaction = Selectable<TransactionsTable>
export type BankDetailsRow = Selectable<BankDetailsTable>
export type GithubInstallation = Selectable<GithubInstallationsTable>
export type GithubDelivery = Selectable<GithubDeliveriesTable>
export type Review = Selectable<ReviewsTable>
export type SaleMessage = Selectable<SaleMessagesTable>
