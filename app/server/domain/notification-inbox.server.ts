import { db } from '../infra/db.server.ts'
import { AppError } from './errors.server.ts'

/**
 * The in-app side of notifications (issue 17): the bell's unread count and the
 * /notifications page. Rows are written by notify() (notifications.server.ts);
 * here a user reads and marks their own — another user's row is not found.
 */
export interface InboxNotification {
  id: string
  kind: string
  title: string
  body: string
  link: string | null
  readAt: Date | null
  createdAt: Date
}

const PAGE_SIZE = 50

export function listNotifications(userId: string): Promise<InboxNotification[]> {
  return db
    .selectFrom('notifications')
    .select(['id', 'kind', 'title', 'body', 'link', 'readAt', 'createdAt'])
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(PAGE_SIZE)
    .execute()
}

/** The header bell's count (issue 17): one indexed count. Also asked inside the caller's own read (auth.server.ts). */
export function unreadCountQuery(userId: string) {
  return db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
}

export async function unreadCount(userId: string): Promise<number> {
  const row = await unreadCountQuery(userId).executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function markRead(userId: string, id: string, now = new Date()): Promise<void> {
  const row = await db
    .updateTable('notifications')
    .set({ readAt: now })
    .where('id', '=', id)
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
    .returning('id')
    .executeTakeFirst()
  if (row) return
  const exists = await db.selectFrom('notifications').select('id').where('id', '=', id).where('userId', '=', userId).executeTakeFirst()
  if (!exists) throw new AppError(404, 'Notification not found')
}

export async function markAllRead(userId: string, now = new Date()): Promise<number> {
  const rows = await db
    .updateTable('notifications')
    .set({ readAt: now })
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
    .returning('id')
    .execute()
  return rows.length
}

export interface NotificationSettings {
  reminders: boolean
  updates: boolean
  digests: boolean
  /** IANA zone the mails show times in; null: UTC. */
  timeZone: string | null
}

/** The optional kinds a user turned off, and their time zone (defaults: everything on, UTC). */
export async function getNotificationSettings(userId: string): Promise<NotificationSettings> {
  const row = await db
    .selectFrom('notificationPreferences')
    .select(['reminders', 'updates', 'digests', 'timeZone'])
    .where('userId', '=', userId)
    .executeTakeFirst()
  return row ?? { reminders: true, updates: true, digests: true, timeZone: null }
}

export async function saveNotificationSettings(userId: string, settings: NotificationSettings, now = new Date()): Promise<void> {
  await db
    .insertInto('notificationPreferences')
    .values({ userId, ...settings, updatedAt: now })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ ...settings, updatedAt: now }))
    .execute()
}
