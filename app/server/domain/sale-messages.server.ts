import type { Transaction as DbTransaction, Kysely } from 'kysely'
import { SALE_STATUSES } from '~/lib/escrow'
import { isUuid } from '~/lib/ids'
import type { SaleMessageNotice } from '~/lib/sale-message-notice'
import { MESSAGE_MAX_LENGTH, MESSAGE_REQUIRED, MESSAGE_TOO_LONG, normaliseMessage } from '~/lib/sale-message-schema'
import type { DB, TransactionStatus } from '../../../db/schema.ts'
import type { RateLimit } from '../http/rate-limit.server.ts'
import { db } from '../infra/db.server.ts'
import { ensureJobSchema } from '../infra/jobs.server.ts'
import { recordAudit } from './audit.server.ts'
import { AppError } from './errors.server.ts'
import { checkReplay, type IdempotentCreate } from './idempotency.server.ts'
import { notify } from './notifications.server.ts'
import type { PublicUser } from './users.server.ts'

/**
 * A message thread per sale (issue 18, docs/decisions/019).
 *
 * Who may read and write:
 * - the buyer and the seller of a paid sale read and write (plain text, ≤ 5,000 characters);
 * - an admin reads, and only while the sale is disputed: each reading is written to the audit
 *   log (once per admin and sale every AUDIT_READ_EVERY_MS, so the page's refresh does not flood
 *   it), and the parties are told that an admin can read the thread during a dispute;
 * - anyone else gets 404 (no hint that the sale exists), anonymous 401 (the surfaces' auth).
 *
 * Posting is limited twice: the route's per-address limit (SALE_MESSAGE_RATE_LIMIT, the routes'
 * policy) and a per-author count in the database (MAX_MESSAGES_PER_MINUTE), which holds across
 * app instances and addresses. A new message notifies the other party (notifyNewMessage).
 */

type Executor = Kysely<DB> | DbTransaction<DB>

/** A thread exists once the buyer paid: attempts that never got paid are not sales. */
export const THREAD_STATUSES: readonly TransactionStatus[] = SALE_STATUSES

/** The routes' per-client-address limit on posting (route-policy.server.ts). */
export const SALE_MESSAGE_RATE_LIMIT: RateLimit = { name: 'sale-message', limit: 20, windowMs: 60_000 }
/** The per-author limit, counted in the database. */
export const MAX_MESSAGES_PER_MINUTE = 10
export const TOO_MANY_MESSAGES = 'You are sending messages too quickly. Please wait a minute and try again.'

/** An admin's reading of a thread is audited at most this often per admin and sale. */
export const AUDIT_READ_EVERY_MS = 30 * 60_000
export const ADMIN_READ_ACTION = 'sale_messages_read_by_admin'

export type ThreadRole = 'buyer' | 'seller' | 'admin'

export interface ThreadMessage {
  id: string
  body: string
  createdAt: Date
  author: { role: 'buyer' | 'seller'; username: string; displayName: string }
  /** Written by the viewer. */
  mine: boolean
}

export interface ThreadSale {
  id: string
  status: TransactionStatus
  listing: { title: string; slug: string }
  buyer: { id: string; username: string; displayName: string }
  seller: { id: string; username: string; displayName: string }
}

export interface Thread {
  sale: ThreadSale
  viewer: ThreadRole
  /** Parties write; an admin reads. */
  canPost: boolean
  /** The sale is disputed: an admin can read the thread (the parties are told). */
  adminCanRead: boolean
  messages: ThreadMessage[]
}

async function loadSale(executor: Executor, saleId: string): Promise<ThreadSale | null> {
  if (!isUuid(saleId)) return null
  const row = await executor
    .selectFrom('transactions')
    .innerJoin('listings', 'listings.id', 'transactions.listingId')
    .innerJoin('users as buyer', 'buyer.id', 'transactions.buyerId')
    .innerJoin('users as seller', 'seller.id', 'transactions.sellerId')
    .select([
      'transactions.id',
      'transactions.status',
      'listings.title',
      'listings.slug',
      'buyer.id as buyerId',
      'buyer.username as buyerUsername',
      'buyer.displayName as buyerDisplayName',
      'seller.id as sellerId',
      'seller.username as sellerUsername',
      'seller.displayName as sellerDisplayName',
    ])
    .where('transactions.id', '=', saleId)
    .executeTakeFirst()
  if (!row || !THREAD_STATUSES.includes(row.status)) return null
  return {
    id: row.id,
    status: row.status,
    listing: { title: row.title, slug: row.slug },
    buyer: { id: row.buyerId, username: row.buyerUsername, displayName: row.buyerDisplayName },
    seller: { id: row.sellerId, username: row.sellerUsername, displayName: row.sellerDisplayName },
  }
}

/** The viewer's role on the thread, or the refusal: 404 outside the sale, 403 for an admin without a dispute. */
function roleOf(sale: ThreadSale, user: Pick<PublicUser, 'id' | 'isAdmin'>): ThreadRole {
  if (user.id === sale.buyer.id) return 'buyer'
  if (user.id === sale.seller.id) return 'seller'
  if (user.isAdmin) {
    if (sale.status === 'disputed') return 'admin'
    throw new AppError(403, 'An admin can read the messages of a sale only while it is disputed')
  }
  throw new AppError(404, 'Sale not found')
}

/** The sale and the viewer's role on its thread, or the AppError of a refusal. */
export async function threadAccess(saleId: string, user: Pick<PublicUser, 'id' | 'isAdmin'>, executor: Executor = db) {
  const sale = await loadSale(executor, saleId)
  if (!sale) throw new AppError(404, 'Sale not found')
  return { sale, role: roleOf(sale, user) }
}

/** The thread's messages, oldest first (the timeline reads them too). */
export async function threadMessages(saleId: string, executor: Executor = db) {
  return executor
    .selectFrom('saleMessages')
    .innerJoin('transactions', 'transactions.id', 'saleMessages.transactionId')
    .innerJoin('users as author', 'author.id', 'saleMessages.authorId')
    .select([
      'saleMessages.id',
      'saleMessages.body',
      'saleMessages.createdAt',
      'saleMessages.authorId',
      'transactions.buyerId',
      'author.username',
      'author.displayName',
    ])
    .where('saleMessages.transactionId', '=', saleId)
    .orderBy('saleMessages.createdAt')
    .orderBy('saleMessages.id')
    .execute()
}

/**
 * An admin read the thread of a disputed sale: one audit row per admin and sale per
 * AUDIT_READ_EVERY_MS (the page refreshes itself while open). `where` says which surface.
 */
export async function auditAdminRead(saleId: string, adminId: string, where: string, now = new Date()): Promise<void> {
  const recent = await db
    .selectFrom('auditLog')
    .select('id')
    .where('entityType', '=', 'transaction')
    .where('entityId', '=', saleId)
    .where('action', '=', ADMIN_READ_ACTION)
    .where('actorId', '=', adminId)
    .where('createdAt', '>', new Date(now.getTime() - AUDIT_READ_EVERY_MS))
    .executeTakeFirst()
  if (recent) return
  await recordAudit(db, {
    actorId: adminId,
    actorRole: 'admin',
    action: ADMIN_READ_ACTION,
    entityType: 'transaction',
    entityId: saleId,
    reason: 'Read the messages of a disputed sale',
    metadata: { where },
  })
}

/** The thread as `user` may see it (403/404 otherwise); an admin's reading is audited. */
export async function getThread(saleId: string, user: PublicUser, options: { where?: string; now?: Date } = {}): Promise<Thread> {
  const { sale, role } = await threadAccess(saleId, user)
  if (role === 'admin') await auditAdminRead(sale.id, user.id, options.where ?? 'thread', options.now)
  const rows = await threadMessages(sale.id)
  return {
    sale,
    viewer: role,
    canPost: role !== 'admin',
    adminCanRead: sale.status === 'disputed',
    messages: rows.map((row) => ({
      id: row.id,
      body: row.body,
      createdAt: row.createdAt,
      author: { role: row.authorId === row.buyerId ? 'buyer' : 'seller', username: row.username, displayName: row.displayName },
      mine: row.authorId === user.id,
    })),
  }
}

export interface PostedMessage {
  id: string
  transactionId: string
  authorId: string
  body: string
  createdAt: Date
}

/**
 * The buyer or the seller writes on the sale's thread. The text is checked again here (the
 * surfaces validate with the shared schema first), the author's pace is limited, and the other
 * party is notified in the same database transaction as the message.
 */
export async function postMessage(input: {
  saleId: string
  author: PublicUser
  body: string
  now?: Date
  /** An API client's Idempotency-Key: a retry answers the message the first request posted. */
  idempotent?: IdempotentCreate
}): Promise<PostedMessage & { replayed?: true }> {
  const body = normaliseMessage(input.body)
  if (!body) throw new AppError(400, MESSAGE_REQUIRED, { extra: { field: 'body' } })
  if (body.length > MESSAGE_MAX_LENGTH) throw new AppError(400, MESSAGE_TOO_LONG, { extra: { field: 'body' } })
  const now = input.now ?? new Date()
  // notify() queues the mail's job inside the transaction: the queue's schema must exist first.
  await ensureJobSchema()
  return db.transaction().execute(async (trx) => {
    const { sale, role } = await threadAccess(input.saleId, input.author, trx)
    if (role === 'admin') throw new AppError(403, 'Only the buyer and the seller can write on this sale')
    // One author's messages are counted one at a time (the lock on the author's row).
    await trx.selectFrom('users').select('id').where('id', '=', input.author.id).forUpdate().execute()
    // Under that lock, a retry with the same key finds the message the first request posted.
    if (input.idempotent) {
      const earlier = await trx
        .selectFrom('saleMessages')
        .select(['id', 'transactionId', 'authorId', 'body', 'createdAt', 'idempotencyHash'])
        .where('authorId', '=', input.author.id)
        .where('idempotencyKey', '=', input.idempotent.key)
        .executeTakeFirst()
      if (earlier) {
        checkReplay(earlier, input.idempotent)
        const { idempotencyHash: _hash, ...message } = earlier
        return { ...message, replayed: true as const }
      }
    }
    const recent = await trx
      .selectFrom('saleMessages')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('createdAt').as('oldest')])
      .where('authorId', '=', input.author.id)
      .where('createdAt', '>', new Date(now.getTime() - 60_000))
      .executeTakeFirstOrThrow()
    if (Number(recent.count) >= MAX_MESSAGES_PER_MINUTE) {
      // The author may write again when the oldest message of the minute leaves it.
      const retryAfter = recent.oldest ? (new Date(recent.oldest).getTime() + 60_000 - now.getTime()) / 1000 : 60
      throw new AppError(429, TOO_MANY_MESSAGES, { retryAfter })
    }
    const message = await trx
      .insertInto('saleMessages')
      .values({
        transactionId: sale.id,
        authorId: input.author.id,
        body,
        createdAt: now,
        idempotencyKey: input.idempotent?.key,
        idempotencyHash: input.idempotent?.hash,
      })
      .returning(['id', 'transactionId', 'authorId', 'body', 'createdAt'])
      .executeTakeFirstOrThrow()
    await notifyNewMessage(trx, { sale, authorRole: role, message })
    return message
  })
}

/** Where each party reads the thread. */
export function threadPath(saleId: string): string {
  return `/sales/${saleId}/messages`
}

/** Several messages on one thread within this window become one e-mail (the outbox's batch). */
export const MESSAGE_BATCH_WINDOW_MS = 5 * 60_000
/** A busy conversation still mails at least this often. */
export const MESSAGE_BATCH_MAX_DELAY_MS = 15 * 60_000
export const SALE_MESSAGE_KIND = 'sale_message'

/**
 * The other party hears of a new message in the app (one row per message) and
 * by e-mail through the notifications outbox: several messages on one thread
 * within MESSAGE_BATCH_WINDOW_MS are merged into one unsent mail (the same
 * batch key), sent at most MESSAGE_BATCH_MAX_DELAY_MS after the first.
 */
async function notifyNewMessage(
  trx: Executor,
  input: { sale: ThreadSale; authorRole: 'buyer' | 'seller'; message: PostedMessage },
): Promise<void> {
  const { sale, authorRole, message } = input
  const author = authorRole === 'buyer' ? sale.buyer : sale.seller
  const recipient = authorRole === 'buyer' ? sale.seller : sale.buyer
  const excerpt = message.body.length > 200 ? `${message.body.slice(0, 199)}…` : message.body
  const data: SaleMessageNotice = {
    saleId: sale.id,
    listingTitle: sale.listing.title,
    authorName: `@${author.username}`,
    authorRole,
    excerpt,
    path: threadPath(sale.id),
  }
  await notify(trx, {
    kind: SALE_MESSAGE_KIND,
    userId: recipient.id,
    dedupeKey: `${SALE_MESSAGE_KIND}:${message.id}:${recipient.id}`,
    data: { ...data },
    batch: {
      key: `${SALE_MESSAGE_KIND}:${sale.id}:${recipient.id}`,
      windowMs: MESSAGE_BATCH_WINDOW_MS,
      maxDelayMs: MESSAGE_BATCH_MAX_DELAY_MS,
    },
    inApp: { title: `New message about ${sale.listing.title}`, body: `${data.authorName}: ${excerpt}`, link: data.path },
    now: message.createdAt,
  })
}

/** A message as the JSON API answers it. */
export function messageJson(message: ThreadMessage) {
  return {
    id: message.id,
    body: message.body,
    createdAt: message.createdAt,
    author: message.author,
    mine: message.mine,
  }
}
