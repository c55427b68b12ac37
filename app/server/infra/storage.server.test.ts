import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startS3Emulator, type S3Emulator } from '../../../emulators/s3/server.ts'
import { s3Storage, StorageAccessDeniedError, type ImageStorage } from './storage.server.ts'

// The app's S3 storage against the S3 emulator, once with a key pair holding s3:ListBucket (a
// missing image is a 404) and once without, as S3 behaves then: a missing key is a 403 that the
// app cannot tell from a forbidden one, so it must fail with what to grant, not as if S3 said 404.

const KEY = `${'a'.repeat(32)}/card.webp`
const MISSING = `${'b'.repeat(32)}/card.webp`

async function storageOn(listBucketGranted: boolean): Promise<{ storage: ImageStorage; emulator: S3Emulator }> {
  const emulator = await startS3Emulator({ port: 0, buckets: ['images'], listBucketGranted })
  const storage = s3Storage({
    bucket: 'images',
    region: emulator.region,
    endpoint: emulator.url,
    forcePathStyle: true,
    credentials: { accessKeyId: emulator.accessKeyId, secretAccessKey: emulator.secretAccessKey },
  })
  await storage.put(KEY, Buffer.from('webp bytes'), 'image/webp')
  return { storage, emulator }
}

describe('s3Storage', () => {
  const stores: S3Emulator[] = []
  let granted: ImageStorage
  let restricted: ImageStorage

  beforeAll(async () => {
    const withList = await storageOn(true)
    const withoutList = await storageOn(false)
    stores.push(withList.emulator, withoutList.emulator)
    granted = withList.storage
    restricted = withoutList.storage
  })

  afterAll(async () => {
    await Promise.all(stores.map((emulator) => emulator.close()))
  })

  it('reads an image with its ETag and size, and answers a missing one with null / false', async () => {
    const object = await granted.get(KEY)
    expect(object).toMatchObject({ contentType: 'image/webp', size: 10, etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) })
    expect(await granted.get(KEY, { ifNoneMatch: (object as { etag: string }).etag })).toMatchObject({ notModified: true })
    expect(await granted.get(MISSING)).toBeNull()
    expect(await granted.exists(KEY)).toBe(true)
    expect(await granted.exists(MISSING)).toBe(false)
  })

  it('without s3:ListBucket, says so for a missing image instead of an unexplained AccessDenied', async () => {
    expect(await restricted.exists(KEY)).toBe(true)
    await expect(restricted.get(MISSING)).rejects.toThrow(StorageAccessDeniedError)
    await expect(restricted.get(MISSING)).rejects.toThrow(/s3:ListBucket/)
    await expect(restricted.exists(MISSING)).rejects.toThrow(/s3:ListBucket/)
  })
})
