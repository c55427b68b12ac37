import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { splitFee } from '../../app/lib/money.ts'
import { syncUser } from '../../app/server/domain/users.server.ts'
import { db } from '../../app/server/infra/db.server.ts'
import { config } from '../../app/server/infra/env.server.ts'
import { s3Storage, setStorageForTesting } from '../../app/server/infra/storage.server.ts'
import { APP } from '../support/call-route.ts'
import { authEmulator, s3Emulator } from '../support/services.ts'

// Fixtures for the listings suites: users with tokens, generated images, a
// private uploads bucket per test (in the test file's S3 emulator, reached
// through @aws-sdk/client-s3 like in production).

/** Points image storage at a fresh, empty bucket of the S3 emulator; returns its name. */
export function useTemporaryUploads(): string {
  const bucket = `uploads-${randomBytes(6).toString('hex')}`
  // In memory, the bucket exists as soon as the call returns (nothing is awaited before it is added).
  void s3Emulator.store.createBucket(bucket, Date.now())
  const env = config()
  setStorageForTesting(
    s3Storage({
      bucket,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: s3Emulator.accessKeyId, secretAccessKey: s3Emulator.secretAccessKey },
    }),
  )
  return bucket
}

/** Every object key in the uploads bucket, to prove what was (not) written. */
export function storedFiles(bucket: string): string[] {
  return s3Emulator.store.list(bucket).map((object) => object.key)
}

export async function signUp(email: string) {
  const session = await authEmulator.createSession({ email, fullName: email.split('@')[0] })
  await syncUser({ id: session.user.id, email, displayName: email.split('@')[0]!, avatarUrl: null })
  return { id: session.user.id, email, token: session.access_token }
}

/** A generated image in a real format (noise, so JPEGs are big enough to truncate). */
export async function makeImage(format: 'png' | 'jpeg' | 'webp', { width = 320, height = 200, noise = false } = {}) {
  const channels = 3
  const image = noise
    ? sharp(Buffer.from(Array.from({ length: width * height * channels }, () => Math.floor(Math.random() * 256))), {
        raw: { width, height, channels },
      })
    : sharp({ create: { width, height, channels, background: { r: 90, g: 60, b: 200 } } })
  return image[format]().toBuffer()
}

export function file(bytes: Uint8Array | string, name: string, type = 'image/png') {
  return new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type })
}

/** A multipart screen post with the Origin the CSRF check wants. */
export function formPost(pathname: string, body: FormData, token?: string) {
  const headers = new Headers({ Origin: APP })
  if (token) headers.set('Authorization', `Bearer ${token}`)
  return new Request(`${APP}${pathname}`, { method: 'POST', headers, body })
}

/** A sale row (any transaction counts as a sale for archive-instead-of-delete). */
export async function recordSale(listingId: string, sellerId: string, buyerId: string, amountCents = 1000) {
  const { applicationFeeCents } = splitFee(amountCents)
  return db
    .insertInto('transactions')
    .values({ listingId, sellerId, buyerId, amountCents, applicationFeeCents, status: 'paid', paidAtProvider: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow()
}

/** The smallest valid API body. */
export function apiListing(overrides: Record<string, unknown> = {}) {
  return {
    title: 'LaunchKit SaaS Starter',
    shortDescription: 'Auth, billing and teams.',
    type: 'template',
    licence: 'commercial',
    priceCents: 4900,
    ...overrides,
  }
}
