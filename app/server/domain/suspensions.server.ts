import { isUuid } from '~/lib/ids'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { recordAudit } from './audit.server.ts'
import { cancelStaleCheckouts } from './checkout.server.ts'
import { AppError } from './errors.server.ts'
import { decideSuspension, type SuspensionEvent, type SuspensionStatus } from './suspension-transitions.server.ts'

/**
 * Suspending a user (issue 30, docs/decisions/030): the runner of the suspension machine
 * (suspension-transitions.server.ts) and its verbs. Approved by a second admin, a suspension stops
 * the user's sign-in (`isSuspended`, asked by auth.server.ts on every request), hides their visible
 * listings (recorded, and shown again when it is lifted; the database keeps them hidden meanwhile)
 * and holds their payouts (`sellerMayBePaidSql` in payouts.server.ts).
 */

export interface Suspension {
  id: string
  userId: string
  status: SuspensionStatus
  reason: string
  requestedBy: string
  requestedAt: Date
  approvedBy: string | null
  approvedAt: Date | null
  hiddenListingIds: string[]
}

const COLUMNS = ['id', 'userId', 'status', 'reason', 'requestedBy', 'requestedAt', 'approvedBy', 'approvedAt', 'hiddenListingIds'] as const

async function applySuspensionEvent(input: {
  userId: string
  event: SuspensionEvent
  adminId: string
  reason?: string
  now?: Date
}): Promise<Suspension> {
  if (!isUuid(input.userId)) throw new AppError(404, 'User not found')
  if (input.userId === input.adminId) throw new AppError(400, 'You cannot suspend yourself')
  const now = input.now ?? new Date()
  const data = { now, adminId: input.adminId, reason: input.reason }
  const { suspension, hidden } = await db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('id', '=', input.userId).forUpdate().executeTakeFirst()
    if (!user) throw new AppError(404, 'User not found')
    const open = await trx
      .selectFrom('userSuspensions')
      .selectAll()
      .where('userId', '=', user.id)
      .where('status', 'in', ['requested', 'active'])
      .forUpdate()
      .executeTakeFirst()
    const { rule, from, to } = decideSuspension(open, input.event, data)
    let written: Suspension
    let hidden: string[] = []
    if (input.event === 'request') {
      written = await trx
        .insertInto('userSuspensions')
        .values({
          ...rule.set(data),
          userId: user.id,
          status: 'requested',
          reason: input.reason!,
          requestedBy: input.adminId,
          requestedAt: now,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow()
    } else {
      const status: SuspensionStatus = to === 'active' ? 'active' : input.event === 'cancel' ? 'cancelled' : 'lifted'
      if (input.event === 'approve') {
        const rows = await trx
          .updateTable('listings')
          .set({ visible: false, updatedAt: now })
          .where('sellerId', '=', user.id)
          .where('visible', '=', true)
          .where('archivedAt', 'is', null)
          .returning('id')
          .execute()
        hidden = rows.map((row) => row.id)
      }
      const updated = await trx
        .updateTable('userSuspensions')
        .set({ ...rule.set(data), status, ...(input.event === 'approve' ? { hiddenListingIds: hidden } : {}) })
        .where('id', '=', open!.id)
        .where('status', '=', open!.status)
        .returning(COLUMNS)
        .executeTakeFirst()
      if (!updated) throw new AppError(409, 'This suspension changed meanwhile: please reload')
      written = updated
      // Lifted: the listings it hid are shown again (a takedown in force keeps its listing hidden: the trigger).
      if (input.event === 'lift' && updated.hiddenListingIds.length > 0) {
        await trx
          .updateTable('listings')
          .set({ visible: true, updatedAt: now })
          .where('id', 'in', updated.hiddenListingIds)
          .where('archivedAt', 'is', null)
          .execute()
      }
    }
    await recordAudit(trx, {
      actorId: input.adminId,
      actorRole: 'admin',
      action: rule.action,
      entityType: 'user',
      entityId: user.id,
      fromState: from,
      toState: to,
      reason: input.reason ?? null,
      metadata: { suspensionId: written.id, ...(hidden.length > 0 ? { hiddenListings: hidden.length } : {}) },
    })
    return { suspension: written, hidden }
  })
  logEvent('info', 'user_suspension', { category: 'security', userId: input.userId, event: input.event, status: suspension.status })
  for (const listingId of hidden) await cancelStaleCheckouts(listingId)
  return suspension
}

export function requestSuspension(input: { userId: string; adminId: string; reason: string; now?: Date }) {
  return applySuspensionEvent({ ...input, event: 'request' })
}

export function approveSuspension(input: { userId: string; adminId: string; now?: Date }) {
  return applySuspensionEvent({ ...input, event: 'approve' })
}

export function cancelSuspension(input: { userId: string; adminId: string; reason: string; now?: Date }) {
  return applySuspensionEvent({ ...input, event: 'cancel' })
}

export function liftSuspension(input: { userId: string; adminId: string; reason: string; now?: Date }) {
  return applySuspensionEvent({ ...input, event: 'lift' })
}

/** Is this user suspended now (an approved suspension not lifted)? Asked on every signed-in request. */
export async function isSuspended(userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false
  return (await activeSuspensionQuery(userId).executeTakeFirst()) !== undefined
}

/** The one rule of "is this user suspended": an active suspension (also read inside auth.server.ts's caller read). */
export function activeSuspensionQuery(userId: string) {
  return db.selectFrom('userSuspensions').select('id').where('userId', '=', userId).where('status', '=', 'active')
}

export interface SuspensionView {
  id: string
  status: 'requested' | 'active'
  reason: string
  requestedAt: Date
  approvedAt: Date | null
  user: { id: string; username: string; displayName: string }
  requestedBy: { id: string; username: string }
}

/** The open suspensions (requests waiting for a second admin, then active ones), oldest first. */
export async function openSuspensions(): Promise<SuspensionView[]> {
  const rows = await db
    .selectFrom('userSuspensions')
    .innerJoin('users as u', 'u.id', 'userSuspensions.userId')
    .innerJoin('users as r', 'r.id', 'userSuspensions.requestedBy')
    .select([
      'userSuspensions.id',
      'userSuspensions.status',
      'userSuspensions.reason',
      'userSuspensions.requestedAt',
      'userSuspensions.approvedAt',
      'u.id as userId',
      'u.username',
      'u.displayName',
      'r.id as requesterId',
      'r.username as requesterUsername',
    ])
    .where('userSuspensions.status', 'in', ['requested', 'active'])
    .orderBy('userSuspensions.status', 'desc')
    .orderBy('userSuspensions.requestedAt')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    status: row.status as 'requested' | 'active',
    reason: row.reason,
    requestedAt: row.requestedAt,
    approvedAt: row.approvedAt,
    user: { id: row.userId, username: row.username, displayName: row.displayName },
    requestedBy: { id: row.requesterId, username: row.requesterUsername },
  }))
}
