import type { ColumnType, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely'
import type * as Generated from './schema.generated.ts'

// The database's Kysely types are generated from the migrated schema
// (db/schema.generated.ts: `npm run db:types` after adding a migration; a test
// fails until you do). Columns are camelCase, as the CamelCasePlugin sees them.
// This file names the tables for the app and refines only what the catalog
// cannot say: the shape of JSON columns and what generated columns guarantee.

/** What a delivery stores in transactions.delivery_proof (jsonb). */
export interface DeliveryProof {
  forkUrl: string
}

export type UsersTable = Generated.Users
export interface BankDetailsTable extends Omit<Generated.BankDetails, 'country'> {
  /** One of the CHECK's countries; the form's schema (app/lib/bank-details-schema.ts) validates it as a string. */
  country: string
}
export type RevokedSessionsTable = Generated.RevokedSessions
export type ProcessedEventsTable = Generated.ProcessedEvents
export type MoneyExceptionsTable = Generated.MoneyExceptions
/** Vocabulary of listing words for typo correction (migrations/0002_search_terms.ts, kept by triggers). */
export type SearchTermsTable = Generated.SearchTerms

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

export interface DB extends Omit<Generated.DB, 'bankDetails' | 'listings' | 'transactions' | 'auditLog' | 'appMeta'> {
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

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type Listing = Selectable<ListingsTable>
export type NewListing = Insertable<ListingsTable>
export type ListingUpdate = Updateable<ListingsTable>
export type Transaction = Selectable<TransactionsTable>
export type BankDetailsRow = Selectable<BankDetailsTable>
