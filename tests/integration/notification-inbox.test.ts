import { describe, expect, it } from 'vitest'
import * as root from '../../app/root.tsx'
import * as notificationsRoute from '../../app/routes/notifications.tsx'
import * as profileRoute from '../../app/routes/profile.tsx'
import { db } from '../../app/server/infra/db.server.ts'
import { callRoute } from '../support/call-route.ts'
import { formRequest, screenRequest, signUp } from './admin-fixtures.ts'

async function notice(userId: string, title: string) {
  return db
    .insertInto('notifications')
    .values({ userId, kind: 'new_sale', dedupeKey: `test:${title}:${userId}`, title, body: `${title} body`, link: '/seller/dashboard' })
    .returning('id')
    .executeTakeFirstOrThrow()
}

describe('the notifications page and the bell', () => {
  it('lists only your own, newest first; marks one and all as read; the bell counts the unread', async () => {
    const ada = await signUp('ada@example.com')
    const bob = await signUp('bob@example.com')
    const first = await notice(ada.id, 'First')
    await notice(ada.id, 'Second')
    const bobs = await notice(bob.id, 'Bob only')

    const page = await (await callRoute(notificationsRoute, screenRequest('/notifications', ada.token))).json()
    expect(page.notifications.map((n: { title: string }) => n.title).sort()).toEqual(['First', 'Second'])
    const rootData = await (await callRoute(root, screenRequest('/', ada.token))).json()
    expect(rootData.user.unreadNotifications).toBe(2)

    // Bob's notification is not found for Ada, and stays unread.
    const refused = await callRoute(notificationsRoute, formRequest('/notifications', { intent: 'mark-read', id: bobs.id }, ada.token))
    expect(refused.status).toBe(404)
    expect((await db.selectFrom('notifications').select('readAt').where('id', '=', bobs.id).executeTakeFirstOrThrow()).readAt).toBeNull()

    const marked = await callRoute(notificationsRoute, formRequest('/notifications', { intent: 'mark-read', id: first.id }, ada.token))
    expect(marked.status).toBe(302)
    expect((await (await callRoute(root, screenRequest('/', ada.token))).json()).user.unreadNotifications).toBe(1)
    await callRoute(notificationsRoute, formRequest('/notifications', { intent: 'mark-all-read' }, ada.token))
    expect((await (await callRoute(root, screenRequest('/', ada.token))).json()).user.unreadNotifications).toBe(0)
    expect((await (await callRoute(root, screenRequest('/', bob.token))).json()).user.unreadNotifications).toBe(1)
  })
})

describe('notification settings on /profile', () => {
  it('turns reminders off and sets the time zone; an unknown zone is refused and nothing changes', async () => {
    const ada = await signUp('ada@example.com')
    const before = await (await callRoute(profileRoute, screenRequest('/profile', ada.token))).json()
    expect(before.notificationSettings).toEqual({ reminders: true, updates: true, digests: true, timeZone: null })

    const saved = await callRoute(
      profileRoute,
      formRequest('/profile', { intent: 'notification-settings', digests: 'on', timeZone: 'Europe/Paris' }, ada.token),
    )
    expect(saved.status).toBe(302)
    const after = await (await callRoute(profileRoute, screenRequest('/profile', ada.token))).json()
    expect(after.notificationSettings).toEqual({ reminders: false, updates: false, digests: true, timeZone: 'Europe/Paris' })

    const refused = await callRoute(
      profileRoute,
      formRequest('/profile', { intent: 'notification-settings', reminders: 'on', timeZone: 'Mars/Olympus' }, ada.token),
    )
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ notificationError: 'Choose a time zone from the list' })
    const unchanged = await (await callRoute(profileRoute, screenRequest('/profile', ada.token))).json()
    expect(unchanged.notificationSettings).toEqual(after.notificationSettings)
  })
})
