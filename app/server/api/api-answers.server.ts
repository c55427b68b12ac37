import { LICENCES, LISTING_TYPES } from '~/lib/options'
import { z } from '~/lib/zod'
import type { AuditActorRole, DeliveryProof, TransactionStatus } from '../../../db/schema.ts'

/**
 * The JSON answers of /api/* as Zod schemas (issue 29): the route modules declare
 * them per status (`answers`), openapi.server.ts turns them into the API's
 * description, and the integration tests validate every answer they receive
 * against that description. A handler that returns a domain object passes it
 * through `answer(Schema, value)`, so the compiler checks the object against the
 * schema (a field renamed or retyped in the domain fails typecheck); a field the
 * schema does not list fails the integration tests (the objects are strict).
 */

/** What a value serializes to as JSON: a Date becomes its ISO string. */
type Serializable<T> = T extends string
  ? T | Date
  : T extends readonly (infer U)[]
    ? readonly Serializable<U>[]
    : T extends object
      ? { [K in keyof T]: Serializable<T[K]> }
      : T

/** `value`, checked at compile time against the schema of the answer it becomes. */
export function answer<S extends z.ZodType, T extends Serializable<z.input<S>>>(_schema: S, value: T): T {
  return value
}

export const Timestamp = z.iso.datetime({ offset: true })
export const Id = z.string()

/**
 * Every refusal: `{ error }`, with `field` (one wrong input) or `fields` (every wrong input) and, for a few,
 * more context. Strict: an AppError's `extra` not listed here fails the integration tests until it is described.
 */
export const ApiErrorSchema = z
  .strictObject({
    error: z.string(),
    field: z.string().optional().meta({ description: 'The one input that is wrong.' }),
    fields: z.record(z.string(), z.array(z.string())).optional().meta({ description: 'Every wrong input with its messages.' }),
    scope: z.string().optional().meta({ description: 'The scope the API key lacks (403).' }),
    listingId: Id.optional().meta({ description: 'The listing that was saved hidden when connecting its repository failed.' }),
    rejected: z
      .array(z.strictObject({ name: z.string(), error: z.string() }))
      .optional()
      .meta({ description: 'Each image refused, and why.' }),
    paymentIntentId: z.string().optional().meta({ description: 'The payment already being processed (409).' }),
  })
  .meta({ id: 'Error' })

export const TRANSACTION_STATUSES = [
  'pending_payment',
  'paid',
  'delivering',
  'delivered',
  'completed',
  'disputed',
  'refunded',
  'failed',
  'held',
] as const satisfies readonly TransactionStatus[]

export const ListingSchema = z
  .strictObject({
    id: Id,
    slug: z.string(),
    title: z.string(),
    shortDescription: z.string(),
    longDescription: z.string(),
    type: z.enum(LISTING_TYPES),
    licence: z.enum(LICENCES),
    priceCents: z.int(),
    currency: z.string(),
    languages: z.array(z.string()),
    frameworks: z.array(z.string()),
    dependencies: z.array(z.string()),
    tags: z.array(z.string()),
    screenshots: z.array(z.string()),
    thumbnailUrl: z.string().nullable(),
    demoUrl: z.string().nullable(),
    setupCallAvailable: z.boolean(),
    setupCallDetails: z.string().nullable(),
    emailSupportAvailable: z.boolean(),
    emailSupportDuration: z.string().nullable(),
    bespokeDevelopmentAvailable: z.boolean(),
    bespokeDevelopmentRateCents: z.int().nullable(),
    deliveryTimeframe: z.string().nullable(),
    additionalNotes: z.string().nullable(),
    visible: z.boolean(),
    archivedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastUpdatedAt: Timestamp.meta({
      description:
        "When the listing's latest version (a GitHub release or the seller's version note) was published; createdAt when it has none.",
    }),
    sellerId: Id,
    seller: z.strictObject({
      id: Id,
      username: z.string(),
      displayName: z.string(),
      avatarUrl: z.string().nullable(),
      bio: z.string().nullable(),
    }),
    techStack: z.strictObject({ languages: z.array(z.string()), frameworks: z.array(z.string()), dependencies: z.array(z.string()) }),
    support: z.strictObject({
      setupCallAvailable: z.boolean(),
      setupCallDetails: z.string().nullable(),
      emailSupportAvailable: z.boolean(),
      emailSupportDuration: z.string().nullable(),
      deliveryTimeframe: z.string().nullable(),
      bespokeDevelopmentAvailable: z.boolean(),
      bespokeDevelopmentRate: z.number().nullable().meta({ description: 'Dollars per hour (the flat field carries cents).' }),
      additionalNotes: z.string().nullable(),
    }),
  })
  .meta({ id: 'Listing' })

export const ListingSummarySchema = z
  .strictObject({
    ...ListingSchema.pick({
      id: true,
      slug: true,
      title: true,
      shortDescription: true,
      type: true,
      licence: true,
      priceCents: true,
      currency: true,
      languages: true,
      frameworks: true,
      dependencies: true,
      tags: true,
      thumbnailUrl: true,
      setupCallAvailable: true,
      setupCallDetails: true,
      emailSupportAvailable: true,
      bespokeDevelopmentAvailable: true,
      bespokeDevelopmentRateCents: true,
      additionalNotes: true,
      createdAt: true,
      updatedAt: true,
      lastUpdatedAt: true,
      sellerId: true,
      techStack: true,
      support: true,
    }).shape,
    emailSupportDuration: z.string().nullable(),
    deliveryTimeframe: z.string().nullable(),
    seller: z.strictObject({ username: z.string(), displayName: z.string(), avatarUrl: z.string().nullable() }),
    rating: z.strictObject({
      average: z.number().nullable().meta({ description: 'To a tenth of a star; null without reviews.' }),
      count: z.int(),
    }),
  })
  .meta({ id: 'ListingSummary' })

export const SearchAnswerSchema = z.strictObject({
  listings: z.array(ListingSummarySchema),
  pagination: z.strictObject({
    limit: z.int(),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    nextCursor: z.string().nullable(),
    previousCursor: z.string().nullable(),
  }),
  correctedSearch: z.string().nullable(),
})

/** What a delivery stored (db/schema.ts DeliveryProof): the link the buyer follows and, for GitHub, the evidence. */
export const DeliveryProofSchema = z
  .strictObject({
    forkUrl: z.string(),
    github: z
      .strictObject({
        repository: z.string(),
        repositoryId: z.int(),
        repositoryUrl: z.string(),
        buyerGithubId: z.int(),
        buyerLogin: z.string(),
        invitedAt: Timestamp,
        acceptedAt: Timestamp,
        headSha: z.string(),
        headShaDate: Timestamp.nullable(),
        listedSha: z.string().nullable(),
        confirmedBy: z.enum(['webhook', 'poll'] as const satisfies readonly NonNullable<DeliveryProof['github']>['confirmedBy'][]),
        forkUrl: z.string().nullable(),
      })
      .optional(),
  })
  .meta({ id: 'DeliveryProof' })

export const SaleSchema = z
  .strictObject({
    id: Id,
    listingId: Id,
    buyerId: Id,
    sellerId: Id,
    status: z.enum(TRANSACTION_STATUSES),
    amountCents: z.int(),
    applicationFeeCents: z.int(),
    deliveryProof: DeliveryProofSchema.nullable(),
    deliveredAt: Timestamp.nullable(),
    windowEndsAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    disputedAt: Timestamp.nullable(),
    disputeReason: z.string().nullable(),
    refundRequestedAt: Timestamp.nullable(),
    refundedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Sale' })

export const SaleAnswerSchema = z.strictObject({ transaction: SaleSchema })

export const UserSchema = z
  .strictObject({
    id: Id,
    username: z.string(),
    displayName: z.string(),
    email: z.string(),
    isAdmin: z.boolean(),
    avatarUrl: z.string().nullable(),
    bio: z.string().nullable(),
  })
  .meta({ id: 'User' })

export const MessageSchema = z
  .strictObject({
    id: Id,
    body: z.string(),
    createdAt: Timestamp,
    author: z.strictObject({ role: z.enum(['buyer', 'seller']), username: z.string(), displayName: z.string() }),
    mine: z.boolean(),
  })
  .meta({ id: 'Message' })

export const ThreadAnswerSchema = z.strictObject({
  transactionId: Id,
  status: z.enum(TRANSACTION_STATUSES),
  viewer: z.enum(['buyer', 'seller', 'admin']),
  canPost: z.boolean(),
  adminCanRead: z.boolean(),
  messages: z.array(MessageSchema),
})

export const PostedMessageAnswerSchema = z.strictObject({
  message: z.strictObject({ id: Id, body: z.string(), createdAt: Timestamp, mine: z.literal(true) }),
})

export const WebhookAnswerSchema = z.strictObject({ received: z.literal(true), result: z.enum(['processed', 'duplicate', 'ignored']) })

export const MessageAnswerSchema = z.strictObject({ message: z.string() })

const AUDIT_ACTOR_ROLES = ['buyer', 'seller', 'admin', 'system', 'provider', 'user'] as const satisfies readonly AuditActorRole[]

/** One audit entry (who, when, what, from → to, why). */
export const AuditLogEntrySchema = z
  .strictObject({
    id: Id,
    createdAt: Timestamp,
    actorId: Id.nullable(),
    actorEmail: z.string().nullable(),
    actorRole: z.enum(AUDIT_ACTOR_ROLES),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string(),
    fromState: z.string().nullable(),
    toState: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'AuditLogEntry' })

/** A verified review of a listing, with the seller's reply. */
export const ReviewSchema = z
  .strictObject({
    id: Id,
    stars: z.int().min(1).max(5),
    body: z.string(),
    createdAt: Timestamp,
    verifiedPurchase: z.literal(true),
    author: z.strictObject({ displayName: z.string(), username: z.string(), avatarUrl: z.string().nullable() }),
    sellerReply: z.strictObject({ body: z.string(), createdAt: Timestamp }).nullable(),
  })
  .meta({ id: 'Review' })

export const ReviewsAnswerSchema = z.strictObject({
  rating: z.strictObject({ average: z.number().nullable(), count: z.int() }),
  reviews: z.array(ReviewSchema),
  pagination: z.strictObject({ limit: z.int(), hasNextPage: z.boolean(), nextCursor: z.string().nullable() }),
})
