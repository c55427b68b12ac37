import pg from 'pg'
import sharp from 'sharp'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { APP } from '../support/call-route.ts'
import { createListing, giveBankDetails, insertSale, stripe } from '../support/payment-fixtures.ts'
import { authEmulator } from '../support/services.ts'
import { webhooksDelivered } from '../support/stripe.ts'

/*
 * One world for the hardening suites (access matrix, mass assignment, GET
 * safety, fuzzing, logging): an owner (seller with approved bank details, a
 * visible listing, a hidden listing and one sold listing per escrow state), a buyer (the buyer of those sales), another seller (pending
 * bank details, a listing of their own) and an admin.
 *
 * Auth sessions are created once per file (the emulator keeps them); the
 * product rows are rebuilt after every TRUNCATE.
 */

export type Role = 'anon' | 'buyer' | 'other' | 'owner' | 'admin'
export const ROLES: Role[] = ['anon', 'buyer', 'other', 'owner', 'admin']

interface Account {
  id: string
  email: string
  token: string
}

/** The four accounts, made once for each file's auth emulator (a file's tokens are signed by its own). */
const accounts = new WeakMap<object, Record<Exclude<Role, 'anon'>, Account>>()

async function account(name: string): Promise<Account> {
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@hardening.test`
  const session = await authEmulator.createSession({ email, fullName: name })
  return { id: session.user.id, email, token: session.access_token }
}

async function getAccounts() {
  const made = accounts.get(authEmulator) ?? {
    buyer: await account('buyer'),
    other: await account('other'),
    owner: await account('owner'),
    admin: await account('admin'),
  }
  accounts.set(authEmulator, made)
  return made
}

/** A real (emulated) Stripe payment, so refunds have something to refund. */
async function paidIntent(amount: number) {
  const intent = await stripe.paymentIntents.create({ amount, currency: 'usd' })
  await stripe.paymentIntents.confirm(intent.id, {
    payment_method_data: {
      type: 'card',
      // @ts-expect-error raw card numbers are accepted by the emulator, not typed by the SDK
      card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' },
    },
  })
  return intent.id
}

export async function buildWorld() {
  const acc = await getAccounts()
  for (const [role, a] of Object.entries(acc)) {
    await syncUser({ id: a.id, email: a.email, displayName: role, avatarUrl: null })
  }
  await db.updateTable('users').set({ isAdmin: true }).where('id', '=', acc.admin.id).execute()
  await giveBankDetails(acc.owner.id, 'approved')
  await giveBankDetails(acc.other.id, 'pending')
  const listing = await createListing(acc.owner.id, { priceCents: 4900 })
  const hidden = await createListing(acc.owner.id, { visible: false })
  const otherListing = await createListing(acc.other.id)
  // One sold listing per sale: a buyer owns at most one copy of a listing.
  const sale = async (status: Parameters<typeof insertSale>[0]['status'], stripePaymentIntentId?: string) => {
    const sold = await createListing(acc.owner.id, { priceCents: 9900 })
    return insertSale({
      listingId: sold.id,
      sellerId: acc.owner.id,
      buyerId: acc.buyer.id,
      status,
      amountCents: 9900,
      stripePaymentIntentId,
    })
  }
  const salePaid = await sale('paid', await paidIntent(9900))
  const saleDelivered = await sale('delivered')
  const saleCompleted = await sale('completed')
  const saleDisputed = await sale('disputed', await paidIntent(9900))
  // The emulator's events for those payments reach the app asynchronously: let them land first.
  await webhooksDelivered()
  return {
    users: acc,
    listing,
    hidden,
    otherListing,
    salePaid,
    saleDelivered,
    saleCompleted,
    saleDisputed,
  }
}
export type World = Awaited<ReturnType<typeof buildWorld>>

export const TABLES = ['audit_log', 'processed_events', 'transactions', 'listings', 'bank_details', 'users', 'app_meta']

/** The same TRUNCATE as tests/setup/worker-setup.ts, for resetting inside one test. */
export async function resetDatabase() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  await client.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY CASCADE`)
  await client.end()
}

export function tokenFor(world: World, role: Role): string | undefined {
  return role === 'anon' ? undefined : world.users[role].token
}

export type Body = { json: unknown } | { form: Record<string, string> } | { multipart: FormData } | { raw: string; contentType?: string }

/** A request as a browser or API client sends it: Origin on writes, bearer token when signed in. */
export function buildRequest(method: string, path: string, token: string | undefined, body?: Body): Request {
  const headers = new Headers()
  if (token) headers.set('Authorization', `Bearer ${token}`)
  if (method !== 'GET' && method !== 'HEAD') headers.set('Origin', APP)
  let payload: BodyInit | undefined
  if (body && 'json' in body) {
    headers.set('Content-Type', 'application/json')
    payload = JSON.stringify(body.json)
  } else if (body && 'form' in body) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded')
    payload = new URLSearchParams(body.form).toString()
  } else if (body && 'multipart' in body) {
    payload = body.multipart
  } else if (body && 'raw' in body) {
    if (body.contentType) headers.set('Content-Type', body.contentType)
    payload = body.raw
  }
  return new Request(`${APP}${path}`, { method, headers, body: payload })
}

export async function tinyPng() {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 200, b: 30 } } })
    .png()
    .toBuffer()
}

export const VALID_BANK_DETAILS = {
  country: 'GB',
  accountHolder: 'Owner Person',
  bankName: 'Monzo',
  sortCode: '040004',
  accountNumber: '12345678',
}

export const API_LISTING = {
  title: 'Hardening Starter',
  shortDescription: 'Auth, billing and teams.',
  type: 'template',
  licence: 'commercial',
  priceCents: 4900,
}
