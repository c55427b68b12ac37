import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { SaleThread } from '../../app/components/messages/sale-thread.tsx'
import { saleMessageContent } from '../../app/lib/sale-message-notice.ts'
import * as disputeScreen from '../../app/routes/admin-dispute.tsx'
import * as messagesApi from '../../app/routes/api/sale-messages.ts'
import * as threadScreen from '../../app/routes/sale-messages.tsx'
import { assembleTimeline } from '../../app/server/domain/dispute-timeline.server.ts'
import { releaseFunds } from '../../app/server/domain/escrow-actions.server.ts'
import { fire } from '../../app/server/domain/escrow.server.ts'
import { ADMIN_READ_ACTION, MAX_MESSAGES_PER_MINUTE, postMessage } from '../../app/server/domain/sale-messages.server.ts'
import { getUserById } from '../../app/server/domain/users.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { createListing, giveBankDetails, insertSale, signUp, stripe } from '../support/payment-fixtures.ts'
import { formRequest, screenRequest } from './admin-fixtures.ts'

/*
 * A message thread per sale and the dispute timeline (issue 18): real
 * PostgreSQL, the real route modules through their middleware, the Stripe
 * emulator for the refund decided from the timeline.
 */

async function world(status: 'delivered' | 'disputed' = 'delivered', stripePaymentIntentId?: string) {
  const seller = await signUp('seller')
  await giveBankDetails(seller.id, 'approved')
  const buyer = await signUp('buyer')
  const other = await signUp('other')
  const admin = await signUp('admin', { admin: true })
  const listing = await createListing(seller.id, { priceCents: 9900 })
  const sale = await insertSale({
    listingId: listing.id,
    sellerId: seller.id,
    buyerId: buyer.id,
    status,
    amountCents: 9900,
    stripePaymentIntentId,
  })
  return { seller, buyer, other, admin, listing, sale }
}

const path = (id: string) => `/api/transactions/${id}/messages`
const getApi = (id: string, token?: string) => callRoute(messagesApi, apiRequest(path(id), { token }), { id })
const postApi = (id: string, body: unknown, token?: string) =>
  callRoute(messagesApi, apiRequest(path(id), { method: 'POST', token, json: body }), { id })
const getScreen = (id: string, token?: string) => callRoute(threadScreen, screenRequest(`/sales/${id}/messages`, token), { id })
const postScreen = (id: string, fields: Record<string, string>, token?: string) =>
  callRoute(threadScreen, formRequest(`/sales/${id}/messages`, fields, token), { id })

async function adminReads(saleId: string) {
  return db.selectFrom('auditLog').selectAll().where('entityId', '=', saleId).where('action', '=', ADMIN_READ_ACTION).execute()
}

describe('thread access matrix', () => {
  it('buyer and seller read and write; another user, anonymous and an admin without a dispute cannot', async () => {
    const w = await world('delivered')
    const cells: Record<string, [number, number, number, number]> = {}
    for (const [role, token] of [
      ['buyer', w.buyer.token],
      ['seller', w.seller.token],
      ['other', w.other.token],
      ['anonymous', undefined],
      ['admin', w.admin.token],
    ] as const) {
      cells[role] = [
        (await getApi(w.sale.id, token)).status,
        (await postApi(w.sale.id, { body: `hello from ${role}` }, token)).status,
        (await getScreen(w.sale.id, token)).status,
        (await postScreen(w.sale.id, { body: `screen hello from ${role}` }, token)).status,
      ]
    }
    expect(cells).toEqual({
      buyer: [200, 201, 200, 302],
      seller: [200, 201, 200, 302],
      other: [404, 404, 404, 404],
      anonymous: [401, 401, 302, 302],
      admin: [403, 403, 403, 403],
    })
    // Only the parties' four messages were written, in order.
    const stored = await db.selectFrom('saleMessages').select(['body', 'authorId']).orderBy('createdAt').orderBy('id').execute()
    expect(stored.map((m) => m.body).sort()).toEqual(
      ['hello from buyer', 'hello from seller', 'screen hello from buyer', 'screen hello from seller'].sort(),
    )
    expect(await adminReads(w.sale.id)).toHaveLength(0)
  })

  it('an admin reads the thread of a disputed sale (read only), audited once per half hour, and the parties are told', async () => {
    const w = await world('disputed')
    await postMessage({ saleId: w.sale.id, author: (await getUserById(w.buyer.id))!, body: 'It does not build on Node 22' })

    const first = await getApi(w.sale.id, w.admin.token)
    expect(first.status).toBe(200)
    const thread = await first.json()
    expect(thread).toMatchObject({ viewer: 'admin', canPost: false, adminCanRead: true })
    expect(thread.messages.map((m: { body: string }) => m.body)).toEqual(['It does not build on Node 22'])
    expect((await getScreen(w.sale.id, w.admin.token)).status).toBe(200)
    // Read twice (API and screen): one audit row, with who and where.
    const reads = await adminReads(w.sale.id)
    expect(reads).toHaveLength(1)
    expect(reads[0]).toMatchObject({ actorId: w.admin.id, actorRole: 'admin', entityType: 'transaction' })

    // An admin cannot write on it.
    expect((await postApi(w.sale.id, { body: 'Admin here' }, w.admin.token)).status).toBe(403)
    // The parties see that an admin can read it now.
    const buyerView = await (await getApi(w.sale.id, w.buyer.token)).json()
    expect(buyerView).toMatchObject({ viewer: 'buyer', canPost: true, adminCanRead: true })
    // Another user still gets nothing, dispute or not.
    expect((await getApi(w.sale.id, w.other.token)).status).toBe(404)
  })

  it('no thread for an unknown id, a malformed id, or a payment attempt that never got paid', async () => {
    const w = await world('delivered')
    const attempt = await insertSale({
      listingId: (await createListing(w.seller.id)).id,
      sellerId: w.seller.id,
      buyerId: w.buyer.id,
      status: 'pending_payment',
    })
    for (const id of ['00000000-0000-4000-a000-000000000000', 'not-a-uuid', attempt.id]) {
      expect((await getApi(id, w.buyer.token)).status, id).toBe(404)
      expect((await postApi(id, { body: 'hi' }, w.buyer.token)).status, id).toBe(404)
    }
  })
})

describe('messages: plain text, at most 5,000 characters, paced', () => {
  it('5,000 characters are kept; 5,001 and blank are refused with the field (API and form)', async () => {
    const w = await world()
    expect((await postApi(w.sale.id, { body: 'x'.repeat(5000) }, w.buyer.token)).status).toBe(201)
    const tooLong = await postApi(w.sale.id, { body: 'x'.repeat(5001) }, w.buyer.token)
    expect(tooLong.status).toBe(400)
    expect(await tooLong.json()).toEqual({ error: 'Messages must be at most 5,000 characters', field: 'body' })
    const blank = await postApi(w.sale.id, { body: '  \n ' }, w.buyer.token)
    expect(blank.status).toBe(400)
    expect(await blank.json()).toEqual({ error: 'Write a message', field: 'body' })
    const form = await postScreen(w.sale.id, { body: 'y'.repeat(5001) }, w.seller.token)
    expect(form.status).toBe(400)
    expect(JSON.stringify(await form.json())).toContain('Messages must be at most 5,000 characters')
    expect(await db.selectFrom('saleMessages').select('body').execute()).toEqual([{ body: 'x'.repeat(5000) }])
    // The database refuses what the app would: a constraint, not only the schema.
    await expect(
      db
        .insertInto('saleMessages')
        .values({ transactionId: w.sale.id, authorId: w.buyer.id, body: 'z'.repeat(5001) })
        .execute(),
    ).rejects.toThrow(/check/i)
    // …and a third person as author.
    await expect(
      db.insertInto('saleMessages').values({ transactionId: w.sale.id, authorId: w.other.id, body: 'intruder' }).execute(),
    ).rejects.toThrow(/buyer or the seller/)
  })

  it('links stay text: the thread renders no anchor and no HTML from a message', async () => {
    const w = await world()
    const body = 'Try https://evil.example/login or <a href="https://evil.example">here</a> <img src=x onerror=alert(1)>'
    expect((await postApi(w.sale.id, { body }, w.seller.token)).status).toBe(201)
    const thread = await (await getApi(w.sale.id, w.buyer.token)).json()
    expect(thread.messages[0].body).toBe(body)

    const Stub = createRoutesStub([
      {
        path: '/',
        Component: () => createElement(SaleThread, { messages: thread.messages, canPost: true, disputed: false, otherParty: '@seller' }),
      },
    ])
    const html = renderToString(createElement(Stub, { initialEntries: ['/'] }))
    expect(html).not.toMatch(/<a\b/i)
    expect(html).not.toMatch(/<img\b/i)
    expect(html).toContain('Try https://evil.example/login or &lt;a href=&quot;https://evil.example&quot;&gt;here&lt;/a&gt;')
    expect(html).toContain('<label')
    expect(html).toContain('aria-live="polite"')
  })

  it(`an author may post ${MAX_MESSAGES_PER_MINUTE} messages a minute, then 429 (counted in the database)`, async () => {
    const w = await world()
    const answers: Response[] = []
    for (let i = 0; i <= MAX_MESSAGES_PER_MINUTE; i += 1) answers.push(await postApi(w.sale.id, { body: `m${i}` }, w.buyer.token))
    expect(answers.slice(0, -1).every((a) => a.status === 201)).toBe(true)
    const refused = answers.at(-1)!
    expect(refused.status).toBe(429)
    // Every 429 says when to come back (issue 26.3): here when the oldest message of the minute leaves it.
    const retryAfter = Number(refused.headers.get('Retry-After'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await refused.json()).toEqual({ error: 'You are sending messages too quickly. Please wait a minute and try again.' })
    // The thread's form post too.
    const screen = await postScreen(w.sale.id, { body: 'one more' }, w.buyer.token)
    expect(screen.status).toBe(429)
    expect(Number(screen.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1)
    // The other party is not slowed by the first one's pace.
    expect((await postApi(w.sale.id, { body: 'reply' }, w.seller.token)).status).toBe(201)
  })
})

describe('POST with an Idempotency-Key (decision 026)', () => {
  const postKeyed = (id: string, body: unknown, token: string, key: string) =>
    callRoute(messagesApi, apiRequest(path(id), { method: 'POST', token, json: body, headers: { 'Idempotency-Key': key } }), { id })
  const bodies = async (saleId: string) =>
    (await db.selectFrom('saleMessages').select('body').where('transactionId', '=', saleId).execute()).map((m) => m.body)

  it('a retry answers the first message, posted and notified once; a reused key elsewhere is a 422', async () => {
    const w = await world()
    const first = await postKeyed(w.sale.id, { body: 'Is the licence per project?' }, w.buyer.token, 'msg-1')
    expect(first.status).toBe(201)
    const posted = (await first.json()).message
    const retries = await Promise.all(
      [1, 2, 3].map(() => postKeyed(w.sale.id, { body: 'Is the licence per project?' }, w.buyer.token, 'msg-1')),
    )
    for (const retry of retries) {
      expect(retry.status).toBe(201)
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
      expect((await retry.json()).message).toEqual(posted)
    }
    expect(await bodies(w.sale.id)).toEqual(['Is the licence per project?'])
    expect(await db.selectFrom('notifications').select('id').where('userId', '=', w.seller.id).execute()).toHaveLength(1)

    // The same key with another text, or on another sale, is a different request.
    const changed = await postKeyed(w.sale.id, { body: 'Another question' }, w.buyer.token, 'msg-1')
    expect(changed.status).toBe(422)
    expect(await changed.json()).toEqual({ error: 'This Idempotency-Key was already used for a different request' })
    // Keys are the author's own: the seller's "msg-1" is a new message.
    expect((await postKeyed(w.sale.id, { body: 'Per project, yes.' }, w.seller.token, 'msg-1')).status).toBe(201)
    expect(await bodies(w.sale.id)).toEqual(['Is the licence per project?', 'Per project, yes.'])
    // Someone who may not write on the thread learns nothing from a key: refused as before.
    expect((await postKeyed(w.sale.id, { body: 'Is the licence per project?' }, w.other.token, 'msg-1')).status).toBe(404)
  })
})

describe('the other party is notified, in the app and by e-mail, batched', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 12, 0) + minutes * 60_000)
  const outboxOf = (userId: string) =>
    db.selectFrom('notificationOutbox').selectAll().where('userId', '=', userId).orderBy('createdAt').execute()

  it('three messages within minutes are one e-mail (each its own in-app row); after it is sent, the next opens a new one', async () => {
    const w = await world()
    const buyer = (await getUserById(w.buyer.id))!
    for (const [minute, body] of [
      [0, 'Hi, quick question'],
      [1, 'Does it run on Node 22?'],
      [3, 'And is https://example.com/docs current?'],
    ] as const) {
      await postMessage({ saleId: w.sale.id, author: buyer, body, now: at(minute) })
    }
    let outbox = await outboxOf(w.seller.id)
    expect(outbox).toHaveLength(1)
    expect(outbox[0]).toMatchObject({ kind: 'sale_message', batchKey: `sale_message:${w.sale.id}:${w.seller.id}`, sentAt: null })
    const payload = outbox[0]!.payload as { count: number; items: { excerpt: string }[]; latest: { excerpt: string; path: string } }
    expect(payload.count).toBe(3)
    expect(payload.items.map((i) => i.excerpt)).toEqual([
      'Hi, quick question',
      'Does it run on Node 22?',
      'And is https://example.com/docs current?',
    ])
    expect(payload.latest.path).toBe(`/sales/${w.sale.id}/messages`)
    // The mail's text (the content the outbox renders for the kind): one mail for the three.
    const mail = saleMessageContent(outbox[0]!.payload as Record<string, unknown>)!
    expect(mail.subject).toBe(`3 new messages about ${w.listing.title}`)
    expect(mail.paragraphs.slice(0, 3)).toEqual([
      `@${buyer.username}: “Hi, quick question”`,
      `@${buyer.username}: “Does it run on Node 22?”`,
      `@${buyer.username}: “And is https://example.com/docs current?”`,
    ])
    expect(mail.action).toEqual({ label: 'Open the conversation', path: `/sales/${w.sale.id}/messages` })
    // Sent five minutes after the last message (the window moves with each one).
    expect(outbox[0]!.sendAfter.toISOString()).toBe(at(3 + 5).toISOString())
    const inApp = await db.selectFrom('notifications').selectAll().where('userId', '=', w.seller.id).orderBy('createdAt').execute()
    expect(inApp.map((n) => n.link)).toEqual(Array(3).fill(`/sales/${w.sale.id}/messages`))
    expect(inApp[1]!.body).toContain('Does it run on Node 22?')
    // The author is never told of their own messages.
    expect(await outboxOf(w.buyer.id)).toHaveLength(0)

    // The seller answers: the buyer gets their own mail.
    await postMessage({ saleId: w.sale.id, author: (await getUserById(w.seller.id))!, body: 'Yes, Node 22 works', now: at(4) })
    expect(await outboxOf(w.buyer.id)).toHaveLength(1)

    // Once the seller's mail went out, a new message starts a new one.
    await db
      .updateTable('notificationOutbox')
      .set({ sentAt: at(9), messageId: '<sent-in-test@forkmarket.test>' })
      .where('userId', '=', w.seller.id)
      .execute()
    await postMessage({ saleId: w.sale.id, author: buyer, body: 'Thanks!', now: at(20) })
    outbox = await outboxOf(w.seller.id)
    expect(outbox).toHaveLength(2)
    expect((outbox[1]!.payload as { count: number }).count).toBe(1)
  })

  it('a busy thread still mails: the batch is sent at most 15 minutes after its first message', async () => {
    const w = await world()
    const buyer = (await getUserById(w.buyer.id))!
    for (const minute of [0, 4, 8, 12, 16]) await postMessage({ saleId: w.sale.id, author: buyer, body: `m${minute}`, now: at(minute) })
    const outbox = await outboxOf(w.seller.id)
    expect(outbox).toHaveLength(1)
    expect((outbox[0]!.payload as { count: number }).count).toBe(5)
    expect(outbox[0]!.sendAfter.toISOString()).toBe(at(15).toISOString())
  })

  it('a refused message notifies nobody', async () => {
    const w = await world()
    expect((await postApi(w.sale.id, { body: 'x'.repeat(5001) }, w.buyer.token)).status).toBe(400)
    expect((await postApi(w.sale.id, { body: 'hello' }, w.other.token)).status).toBe(404)
    expect(await db.selectFrom('notificationOutbox').selectAll().execute()).toEqual([])
    expect(await db.selectFrom('notifications').selectAll().execute()).toEqual([])
  })
})

describe('dispute timeline', () => {
  it('assembles a fixed sale from the audit log, Stripe, GitHub and the messages, in order, each with its source', async () => {
    const w = await world('disputed')
    const t = (iso: string) => new Date(`2026-11-${iso}Z`)
    await db
      .updateTable('transactions')
      .set({ createdAt: t('01T09:59:00') })
      .where('id', '=', w.sale.id)
      .execute()
    const audit = (
      createdAt: Date,
      row: {
        actorId?: string | null
        actorRole: 'buyer' | 'seller' | 'admin' | 'system' | 'provider'
        action: string
        from?: string
        to?: string
        reason?: string
        metadata?: object
      },
    ) =>
      db
        .insertInto('auditLog')
        .values({
          createdAt,
          actorId: row.actorId ?? null,
          actorRole: row.actorRole,
          action: row.action,
          entityType: 'transaction',
          entityId: w.sale.id,
          fromState: row.from ?? null,
          toState: row.to ?? null,
          reason: row.reason ?? null,
          metadata: row.metadata ? JSON.stringify(row.metadata) : null,
        })
        .execute()
    // Written out of order on purpose: the timeline orders by time.
    await audit(t('03T10:00:00'), {
      actorRole: 'system',
      action: 'access_confirmed',
      from: 'delivering',
      to: 'delivered',
      reason: 'octo accepted the invitation',
      metadata: { confirmedBy: 'webhook', headSha: 'b'.repeat(40), listedSha: 'a'.repeat(40) },
    })
    await audit(t('01T10:00:00'), { actorRole: 'provider', action: 'payment_succeeded', from: 'pending_payment', to: 'paid' })
    await audit(t('01T10:00:01'), { actorRole: 'system', action: 'github_delivery_started', from: 'paid', to: 'delivering' })
    await audit(t('02T08:00:00'), {
      actorRole: 'system',
      action: 'github_invitation_sent',
      from: 'delivering',
      to: 'delivering',
      metadata: { login: 'octo' },
    })
    await audit(t('03T11:00:00'), {
      actorRole: 'system',
      action: 'fork_recorded',
      from: 'delivered',
      to: 'delivered',
      metadata: { forkUrl: 'https://github.com/octo/kit' },
    })
    await audit(t('04T09:00:00'), {
      actorId: w.buyer.id,
      actorRole: 'buyer',
      action: 'dispute',
      from: 'delivered',
      to: 'disputed',
      reason: 'The code changed after I paid',
    })
    await audit(t('04T09:30:00'), { actorId: w.admin.id, actorRole: 'admin', action: ADMIN_READ_ACTION })
    await db
      .insertInto('githubDeliveries')
      .values({
        transactionId: w.sale.id,
        installationId: 1,
        repoId: 2,
        repoFullName: 'acme/kit',
        buyerGithubId: 7,
        buyerLogin: 'octo',
        state: 'accepted',
        invitedAt: t('02T08:00:00'),
        acceptedAt: t('03T10:00:00'),
        listedSha: 'a'.repeat(40),
        listedAt: t('01T10:00:00'),
        deliveredSha: 'b'.repeat(40),
        deliveredShaDate: t('02T20:00:00'),
        forkUrl: 'https://github.com/octo/kit',
        forkedAt: t('03T11:00:00'),
      })
      .execute()
    await db
      .insertInto('saleMessages')
      .values([
        {
          transactionId: w.sale.id,
          authorId: w.seller.id,
          body: 'Pushed a fix, see https://github.com/acme/kit/pull/1',
          createdAt: t('04T12:00:00'),
        },
        { transactionId: w.sale.id, authorId: w.buyer.id, body: 'Hello, the build fails', createdAt: t('03T12:00:00') },
      ])
      .execute()

    const sale = { id: w.sale.id, createdAt: t('01T09:59:00'), buyerUsername: 'b', sellerUsername: 's' }
    const { entries } = await assembleTimeline(sale)
    expect(entries.map((e) => [e.at.toISOString().slice(5, 19), e.source, e.title])).toEqual([
      ['11-01T09:59:00', 'sale', 'Checkout opened'],
      ['11-01T10:00:00', 'stripe', 'Payment received'],
      ['11-01T10:00:00', 'github', 'Commit recorded with the listing (the code the buyer paid for)'],
      ['11-01T10:00:01', 'github', 'GitHub delivery started'],
      ['11-02T08:00:00', 'github', 'GitHub invitation sent'],
      ['11-03T10:00:00', 'github', 'Commit read when access was confirmed (the code delivered)'],
      ['11-03T10:00:00', 'github-webhook', 'Invitation accepted: buyer has access'],
      ['11-03T11:00:00', 'github-webhook', 'Buyer forked the repository'],
      ['11-03T12:00:00', 'message', 'Message from the buyer'],
      ['11-04T09:00:00', 'audit', 'Buyer reported a problem'],
      ['11-04T12:00:00', 'message', 'Message from the seller'],
    ])
    const dispute = entries.find((e) => e.title === 'Buyer reported a problem')!
    expect(dispute.detail).toBe('The code changed after I paid')
    expect(dispute.actor).toMatch(/\(buyer\)$/)
    expect(entries.find((e) => e.title === 'Buyer forked the repository')!.facts).toContainEqual({
      label: 'Fork',
      value: 'https://github.com/octo/kit',
    })
    expect(entries.find((e) => e.title.startsWith('Commit recorded with the listing'))!.facts).toContainEqual({
      label: 'Commit',
      value: 'a'.repeat(40),
    })
    expect(entries.at(-1)!.detail).toBe('Pushed a fix, see https://github.com/acme/kit/pull/1')
  })

  it('only an admin opens it, only for a sale that is or was disputed; opening it is audited as reading the thread', async () => {
    const w = await world('disputed')
    const delivered = await world('delivered')
    const open = (id: string, token?: string) => callRoute(disputeScreen, screenRequest(`/admin/disputes/${id}`, token), { id })
    expect((await open(w.sale.id)).status).toBe(302)
    expect((await open(w.sale.id, w.buyer.token)).status).toBe(302)
    expect((await open(w.sale.id, w.seller.token)).status).toBe(302)
    expect((await open(delivered.sale.id, delivered.admin.token)).status).toBe(409)
    expect((await open('00000000-0000-4000-a000-000000000000', w.admin.token)).status).toBe(404)
    const page = await open(w.sale.id, w.admin.token)
    expect(page.status).toBe(200)
    const data = await page.json()
    expect(data.sale).toMatchObject({ id: w.sale.id, status: 'disputed', disputeReason: 'It does not build' })
    expect(data.entries.map((e: { source: string }) => e.source)).toContain('sale')
    expect(await adminReads(w.sale.id)).toHaveLength(1)
  })

  it('a decided dispute opens read only, with the decision, who made it and why (issue 26.7)', async () => {
    const open = (id: string, token: string) => callRoute(disputeScreen, screenRequest(`/admin/disputes/${id}`, token), { id })
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000)

    // Released by an admin from the timeline.
    const released = await world('disputed')
    await postMessage({
      saleId: released.sale.id,
      author: (await getUserById(released.buyer.id))!,
      body: 'Before the decision',
      now: at(-5),
    })
    await releaseFunds({
      transactionId: released.sale.id,
      adminId: released.admin.id,
      reason: 'The delivered commit is the listed one',
      now: at(0),
    })
    await postMessage({
      saleId: released.sale.id,
      author: (await getUserById(released.seller.id))!,
      body: 'Thanks, after the decision',
      now: at(5),
    })
    const page = await open(released.sale.id, released.admin.token)
    expect(page.status).toBe(200)
    const data = await page.json()
    expect(data.sale.status).toBe('completed')
    expect(data.decision).toMatchObject({ outcome: 'released', by: released.admin.email, reason: 'The delivered commit is the listed one' })
    expect(data.entries.map((e: { title: string }) => e.title)).toContain('Admin released the funds to the seller')
    // What the parties wrote after the decision is theirs: an admin reads the thread only during a dispute.
    const bodies = data.entries.filter((e: { source: string }) => e.source === 'message').map((e: { detail: string }) => e.detail)
    expect(bodies).toEqual(['Before the decision'])
    expect(await adminReads(released.sale.id)).toHaveLength(1)

    // Refunded: the admin's claim says who and why; Stripe's refund says when the money went back.
    const refunded = await world('disputed')
    await fire({
      saleId: refunded.sale.id,
      event: 'refund_requested',
      by: { id: refunded.admin.id, role: 'admin' },
      reason: 'The repository was emptied',
    })
    await fire({ saleId: refunded.sale.id, event: 'refunded', by: { id: null, role: 'provider' }, refundId: 're_decided' })
    const refundPage = await (await open(refunded.sale.id, refunded.admin.token)).json()
    expect(refundPage.sale.status).toBe('refunded')
    expect(refundPage.decision).toMatchObject({ outcome: 'refunded', by: refunded.admin.email, reason: 'The repository was emptied' })
    expect(refundPage.decision.refundedAt).not.toBeNull()

    // Read only: the decision, no decision forms, no link to the thread (403 for an admin now).
    const Stub = createRoutesStub([
      { path: '/admin/disputes/:id', Component: disputeScreen.default as never, loader: () => refundPage, HydrateFallback: () => null },
    ])
    const html = renderToString(
      createElement(Stub, { initialEntries: [`/admin/disputes/${refunded.sale.id}`], hydrationData: { loaderData: { '0': refundPage } } }),
    )
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
    expect(text).toContain('Refunded to the buyer')
    expect(text).toContain(`Decided by ${refunded.admin.email}`)
    expect(text).toContain('Reason The repository was emptied')
    expect(text).not.toContain('Release Funds')
    expect(text).not.toContain('Read the conversation')
  })

  it('release from the timeline: a reason is required, then the machine completes the sale and audits who and why', async () => {
    const w = await world('disputed')
    const decide = (fields: Record<string, string>, token = w.admin.token) =>
      callRoute(disputeScreen, formRequest(`/admin/disputes/${w.sale.id}`, fields, token), { id: w.sale.id })

    expect((await decide({ intent: 'release', transactionId: w.sale.id, reason: '' })).status).toBe(400)
    expect((await decide({ intent: 'release', transactionId: w.sale.id, reason: 'Delivered as listed' }, w.buyer.token)).status).toBe(302)
    const other = await world('disputed')
    expect((await decide({ intent: 'release', transactionId: other.sale.id, reason: 'Wrong sale' })).status).toBe(400)
    let sale = await db.selectFrom('transactions').select('status').where('id', '=', w.sale.id).executeTakeFirstOrThrow()
    expect(sale.status).toBe('disputed')

    const done = await decide({ intent: 'release', transactionId: w.sale.id, reason: 'The delivered commit is the listed one' })
    expect(done.status).toBe(302)
    expect(new URL(done.headers.get('Location')!, 'http://x').pathname).toBe('/admin')
    sale = await db.selectFrom('transactions').select('status').where('id', '=', w.sale.id).executeTakeFirstOrThrow()
    expect(sale.status).toBe('completed')
    const rows = await db.selectFrom('auditLog').selectAll().where('entityId', '=', w.sale.id).where('action', '=', 'release').execute()
    expect(rows).toEqual([
      expect.objectContaining({
        actorId: w.admin.id,
        actorRole: 'admin',
        fromState: 'disputed',
        toState: 'completed',
        reason: 'The delivered commit is the listed one',
      }),
    ])
    // A second decision meets the machine's state check.
    expect((await decide({ intent: 'refund', transactionId: w.sale.id, reason: 'Changed my mind' })).status).toBe(409)
  })

  it('refund from the timeline goes through refundSale: claimed with the reason, asked of Stripe once', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 9900, currency: 'usd' })
    await stripe.paymentIntents.confirm(intent.id, {
      payment_method_data: {
        type: 'card',
        // @ts-expect-error raw card numbers are accepted by the emulator, not typed by the SDK
        card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
      },
    })
    const w = await world('disputed', intent.id)
    const response = await callRoute(
      disputeScreen,
      formRequest(
        `/admin/disputes/${w.sale.id}`,
        { intent: 'refund', transactionId: w.sale.id, reason: 'The repository was emptied' },
        w.admin.token,
      ),
      { id: w.sale.id },
    )
    expect(response.status).toBe(302)
    const claim = await db
      .selectFrom('auditLog')
      .selectAll()
      .where('entityId', '=', w.sale.id)
      .where('action', '=', 'refund_requested')
      .execute()
    expect(claim).toEqual([expect.objectContaining({ actorId: w.admin.id, reason: 'The repository was emptied' })])
    // Stripe was asked (its refund id is stored); the sale becomes refunded when charge.refunded lands.
    const sale = await db.selectFrom('transactions').selectAll().where('id', '=', w.sale.id).executeTakeFirstOrThrow()
    expect(sale.stripeRefundId).toMatch(/^re_/)
    expect(sale.refundRequestedAt).not.toBeNull()
  })
})
