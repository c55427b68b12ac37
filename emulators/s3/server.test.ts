import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/client-s3'
import type { FinalizeRequestMiddleware } from '@aws-sdk/types'
import { afterEach, describe, expect, it } from 'vitest'
import { startS3Emulator, type S3Emulator, type S3EmulatorOptions } from './server.ts'

// The emulator is judged through the real AWS SDK (@aws-sdk/client-s3): its
// signer, its XML parsers and its error classes are the ones the app uses.

const running: S3Emulator[] = []
const tempDirs: string[] = []

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()))
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function start(options: S3EmulatorOptions = {}) {
  const emulator = await startS3Emulator({ port: 0, buckets: ['uploads'], ...options })
  running.push(emulator)
  return emulator
}

function clientFor(emulator: S3Emulator, overrides: Partial<S3ClientConfig> = {}) {
  return new S3Client({
    endpoint: emulator.url,
    region: emulator.region,
    forcePathStyle: true,
    credentials: { accessKeyId: emulator.accessKeyId, secretAccessKey: emulator.secretAccessKey },
    maxAttempts: 1,
    ...overrides,
  })
}

/** The SDK's error for a failed command (its name is S3's error code). */
async function failure(promise: Promise<unknown>): Promise<S3ServiceException> {
  try {
    await promise
  } catch (error) {
    if (error instanceof S3ServiceException) return error
    throw error
  }
  throw new Error('expected the command to fail')
}

describe('S3 emulator: objects', () => {
  it('stores and returns an object with its ETag, Content-Type, Last-Modified and metadata (any key)', async () => {
    const s3 = clientFor(await start())
    const key = 'a folder/ünïcode+plus & space=(1)~.webp'
    const put = await s3.send(
      new PutObjectCommand({
        Bucket: 'uploads',
        Key: key,
        Body: Buffer.from('RIFF....WEBP'),
        ContentType: 'image/webp',
        CacheControl: 'public, max-age=60',
        Metadata: { origin: 'test' },
      }),
    )
    expect(put.ETag).toBe(`"${createHash('md5').update('RIFF....WEBP').digest('hex')}"`) // MD5 of the body, quoted, as S3 does
    const got = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: key }))
    expect(await got.Body!.transformToString()).toBe('RIFF....WEBP')
    expect(got.ETag).toBe(put.ETag)
    expect(got.ContentType).toBe('image/webp')
    expect(got.ContentLength).toBe(12)
    expect(got.CacheControl).toBe('public, max-age=60')
    expect(got.Metadata).toEqual({ origin: 'test' })
    expect(got.LastModified).toBeInstanceOf(Date)
    const head = await s3.send(new HeadObjectCommand({ Bucket: 'uploads', Key: key }))
    expect(head.ETag).toBe(put.ETag)
    expect(head.ContentLength).toBe(12)

    await s3.send(new DeleteObjectCommand({ Bucket: 'uploads', Key: key }))
    expect((await failure(s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: key })))).name).toBe('NoSuchKey')
    // HEAD has no body: S3 sends only the status, the SDK names it NotFound.
    const missing = await failure(s3.send(new HeadObjectCommand({ Bucket: 'uploads', Key: key })))
    expect([missing.name, missing.$metadata.httpStatusCode]).toEqual(['NotFound', 404])
    // Deleting what is not there succeeds, as on S3.
    await s3.send(new DeleteObjectCommand({ Bucket: 'uploads', Key: key }))
  })

  it('answers conditional GETs: If-None-Match and If-Modified-Since → 304, If-Match mismatch → 412', async () => {
    const s3 = clientFor(await start())
    const { ETag } = await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'k', Body: 'v1', ContentType: 'text/plain' }))
    const notModified = await failure(s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'k', IfNoneMatch: ETag })))
    expect(notModified.$metadata.httpStatusCode).toBe(304)
    const unchanged = await failure(
      s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'k', IfModifiedSince: new Date(Date.now() + 60_000) })),
    )
    expect(unchanged.$metadata.httpStatusCode).toBe(304)
    const other = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'k', IfNoneMatch: '"0123456789abcdef0123456789abcdef"' }))
    expect(await other.Body!.transformToString()).toBe('v1')
    const mismatch = await failure(
      s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'k', IfMatch: '"0123456789abcdef0123456789abcdef"' })),
    )
    expect([mismatch.name, mismatch.$metadata.httpStatusCode]).toEqual(['PreconditionFailed', 412])
    // Conditional write: If-None-Match: * refuses to overwrite.
    const overwrite = await failure(s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'k', Body: 'v2', IfNoneMatch: '*' })))
    expect(overwrite.name).toBe('PreconditionFailed')
  })

  it('serves byte ranges (206) and refuses an unsatisfiable one (InvalidRange, 416)', async () => {
    const s3 = clientFor(await start())
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'r', Body: '0123456789' }))
    const part = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'r', Range: 'bytes=2-4' }))
    expect([await part.Body!.transformToString(), part.ContentRange]).toEqual(['234', 'bytes 2-4/10'])
    const tail = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'r', Range: 'bytes=-3' }))
    expect(await tail.Body!.transformToString()).toBe('789')
    const beyond = await failure(s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'r', Range: 'bytes=20-' })))
    expect([beyond.name, beyond.$metadata.httpStatusCode]).toEqual(['InvalidRange', 416])
  })

  it('checks the checksums the SDK sends (CRC32 by default) and returns them in checksum mode', async () => {
    const s3 = clientFor(await start())
    const put = await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'c', Body: 'checked', ChecksumAlgorithm: 'SHA256' }))
    expect(put.ChecksumSHA256).toBeTruthy()
    const got = await s3.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'c', ChecksumMode: 'ENABLED' }))
    expect(got.ChecksumSHA256).toBe(put.ChecksumSHA256)
    expect(await got.Body!.transformToString()).toBe('checked')
    const wrong = await failure(s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'c2', Body: 'checked', ChecksumCRC32: 'AAAAAA==' })))
    expect([wrong.name, wrong.$metadata.httpStatusCode]).toEqual(['BadDigest', 400])
    const md5 = await failure(
      s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'c3', Body: 'checked', ContentMD5: 'AAAAAAAAAAAAAAAAAAAAAA==' })),
    )
    expect(md5.name).toBe('BadDigest')
  })
})

describe('S3 emulator: buckets and listings', () => {
  it('creates, heads, lists and deletes buckets; a missing bucket is NoSuchBucket', async () => {
    const s3 = clientFor(await start({ buckets: [] }))
    expect((await failure(s3.send(new HeadBucketCommand({ Bucket: 'photos' })))).$metadata.httpStatusCode).toBe(404)
    const put = await failure(s3.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a', Body: 'x' })))
    expect([put.name, put.$metadata.httpStatusCode, put.message]).toEqual(['NoSuchBucket', 404, 'The specified bucket does not exist'])
    expect((await failure(s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a' })))).name).toBe('NoSuchBucket')
    await s3.send(new CreateBucketCommand({ Bucket: 'photos' }))
    expect((await s3.send(new HeadBucketCommand({ Bucket: 'photos' }))).$metadata.httpStatusCode).toBe(200)
    expect((await failure(s3.send(new CreateBucketCommand({ Bucket: 'photos' })))).name).toBe('BucketAlreadyOwnedByYou')
    expect((await failure(s3.send(new CreateBucketCommand({ Bucket: 'Not_Valid' })))).name).toBe('InvalidBucketName')
    expect((await s3.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toEqual(['photos'])
    await s3.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a', Body: 'x' }))
    expect((await failure(s3.send(new DeleteBucketCommand({ Bucket: 'photos' })))).name).toBe('BucketNotEmpty')
    await s3.send(new DeleteObjectCommand({ Bucket: 'photos', Key: 'a' }))
    await s3.send(new DeleteBucketCommand({ Bucket: 'photos' }))
    expect((await s3.send(new ListBucketsCommand({}))).Buckets ?? []).toEqual([])
  })

  it('lists with ListObjectsV2: prefix, delimiter (common prefixes) and pages', async () => {
    const s3 = clientFor(await start())
    const keys = ['a/1.webp', 'a/2.webp', 'b/1.webp', 'b/2.webp', 'c.txt']
    for (const key of keys) await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: key, Body: key }))
    const top = await s3.send(new ListObjectsV2Command({ Bucket: 'uploads', Delimiter: '/' }))
    expect(top.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['a/', 'b/'])
    expect(top.Contents?.map((o) => o.Key)).toEqual(['c.txt'])
    const underB = await s3.send(new ListObjectsV2Command({ Bucket: 'uploads', Prefix: 'b/' }))
    expect(underB.Contents?.map((o) => [o.Key, o.Size])).toEqual([
      ['b/1.webp', 8],
      ['b/2.webp', 8],
    ])
    const pages: string[][] = []
    for await (const page of paginateListObjectsV2({ client: s3, pageSize: 2 }, { Bucket: 'uploads' })) {
      pages.push((page.Contents ?? []).map((o) => o.Key!))
    }
    expect(pages).toEqual([['a/1.webp', 'a/2.webp'], ['b/1.webp', 'b/2.webp'], ['c.txt']])
  })

  it('keeps objects on disk across restarts when given a data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's3-emulator-'))
    tempDirs.push(dir)
    const first = await start({ dataDir: dir, accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' })
    await clientFor(first).send(
      new PutObjectCommand({ Bucket: 'uploads', Key: 'kept/full.webp', Body: 'persisted', ContentType: 'image/webp' }),
    )
    await first.close()
    running.splice(running.indexOf(first), 1)
    const second = await start({ dataDir: dir, accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret' })
    const got = await clientFor(second).send(new GetObjectCommand({ Bucket: 'uploads', Key: 'kept/full.webp' }))
    expect([await got.Body!.transformToString(), got.ContentType]).toEqual(['persisted', 'image/webp'])
  })
})

describe('S3 emulator: Signature V4', () => {
  it('refuses a request signed with the wrong secret: SignatureDoesNotMatch (403), with the string it expected', async () => {
    const emulator = await start()
    const s3 = clientFor(emulator, { credentials: { accessKeyId: emulator.accessKeyId, secretAccessKey: 'not-the-secret' } })
    const error = await failure(s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'x', Body: 'x' })))
    expect([error.name, error.$metadata.httpStatusCode]).toEqual(['SignatureDoesNotMatch', 403])
    expect((error as S3ServiceException & { StringToSign?: string }).StringToSign).toMatch(
      /^AWS4-HMAC-SHA256\n\d{8}T\d{6}Z\n\d{8}\/us-east-1\/s3\/aws4_request\n[0-9a-f]{64}$/,
    )
    expect(emulator.store.head('uploads', 'x')).toBeUndefined()
  })

  it('refuses an unknown access key (InvalidAccessKeyId), another region (AuthorizationHeaderMalformed) and no signature (AccessDenied)', async () => {
    const emulator = await start()
    const stranger = clientFor(emulator, { credentials: { accessKeyId: 'AKIDSTRANGER', secretAccessKey: emulator.secretAccessKey } })
    expect((await failure(stranger.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'x' })))).name).toBe('InvalidAccessKeyId')
    const elsewhere = clientFor(emulator, { region: 'eu-west-1' })
    const region = await failure(elsewhere.send(new GetObjectCommand({ Bucket: 'uploads', Key: 'x' })))
    expect([region.name, region.message]).toEqual([
      'AuthorizationHeaderMalformed',
      "The authorization header is malformed; the region 'eu-west-1' is wrong; expecting 'us-east-1'",
    ])
    const anonymous = await fetch(`${emulator.url}/uploads/x`)
    expect(anonymous.status).toBe(403)
    expect(await anonymous.text()).toMatch(/<Error><Code>AccessDenied<\/Code><Message>Access Denied<\/Message>/)
  })

  it('refuses a request whose signed parts were changed after signing (a header, the body)', async () => {
    const emulator = await start()
    const tamper = (change: (request: { headers: Record<string, string>; body?: unknown }) => void) => {
      const s3 = clientFor(emulator)
      const middleware: FinalizeRequestMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next) => async (args) => {
        change(args.request as { headers: Record<string, string>; body?: unknown })
        return next(args)
      }
      s3.middlewareStack.addRelativeTo(middleware, { relation: 'after', toMiddleware: 'httpSigningMiddleware', name: 'tamper' })
      return s3
    }
    const retyped = tamper((request) => (request.headers['content-type'] = 'text/html'))
    expect(
      (await failure(retyped.send(new PutObjectCommand({ Bucket: 'uploads', Key: 't', Body: 'safe', ContentType: 'image/webp' })))).name,
    ).toBe('SignatureDoesNotMatch')
    const swapped = tamper((request) => (request.body = Buffer.from('evil')))
    const body = await failure(swapped.send(new PutObjectCommand({ Bucket: 'uploads', Key: 't', Body: 'safe' })))
    expect(body.name).toBe('XAmzContentSHA256Mismatch')
    expect(emulator.store.head('uploads', 't')).toBeUndefined()
  })

  it('refuses a request signed 20 minutes off its clock: RequestTimeTooSkewed (the SDK then corrects its clock from Date)', async () => {
    const emulator = await start()
    const skewed = clientFor(emulator, { systemClockOffset: -20 * 60_000 })
    const error = await failure(skewed.send(new PutObjectCommand({ Bucket: 'uploads', Key: 's', Body: 's' })))
    expect([error.name, error.$metadata.httpStatusCode]).toEqual(['RequestTimeTooSkewed', 403])
    expect((error as S3ServiceException & { MaxAllowedSkewMilliseconds?: string }).MaxAllowedSkewMilliseconds).toBe('900000')
    expect(emulator.store.head('uploads', 's')).toBeUndefined()
    // The SDK corrected its clock from the answer's Date header: the same client's next request succeeds.
    expect(Math.abs(skewed.config.systemClockOffset ?? 0)).toBeLessThan(60_000)
    await skewed.send(new PutObjectCommand({ Bucket: 'uploads', Key: 's', Body: 's' }))
    expect(emulator.store.head('uploads', 's')?.size).toBe(1)
  })

  it("accepts the SDK's presigned URLs (query authentication) until they expire", async () => {
    let now = Date.now()
    const emulator = await start({ now: () => now })
    const s3 = clientFor(emulator)
    await s3.send(new PutObjectCommand({ Bucket: 'uploads', Key: 'shared/full.webp', Body: 'presigned', ContentType: 'image/webp' }))
    const signer = await s3.config.signer()
    const presigned = await (
      signer as unknown as { presign: (r: unknown, o: unknown) => Promise<{ path: string; query: Record<string, string> }> }
    ).presign(
      {
        method: 'GET',
        protocol: 'http:',
        hostname: new URL(emulator.url).hostname,
        port: Number(new URL(emulator.url).port),
        path: '/uploads/shared/full.webp',
        query: {},
        // As @aws-sdk/s3-request-presigner does: the body is not signed (hoisted to X-Amz-Content-Sha256).
        headers: { host: new URL(emulator.url).host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      },
      { expiresIn: 60, signingRegion: emulator.region, signingService: 's3' },
    )
    const url = `${emulator.url}${presigned.path}?${new URLSearchParams(presigned.query).toString()}`
    const response = await fetch(url)
    expect([response.status, await response.text(), response.headers.get('content-type')]).toEqual([200, 'presigned', 'image/webp'])
    const tampered = await fetch(url.replace('shared%2Ffull', 'other').replace('shared/full', 'shared/card'))
    expect(await tampered.text()).toContain('<Code>SignatureDoesNotMatch</Code>')
    now += 61_000
    const expired = await fetch(url)
    expect(expired.status).toBe(403)
    expect(await expired.text()).toMatch(/<Code>AccessDenied<\/Code><Message>Request has expired<\/Message>/)
  })

  it('has a page for people listing the objects, each linked by a working presigned URL', async () => {
    const emulator = await start()
    await clientFor(emulator).send(
      new PutObjectCommand({ Bucket: 'uploads', Key: 'abc/card.webp', Body: 'card', ContentType: 'image/webp' }),
    )
    const page = await (await fetch(`${emulator.url}/_emulator/uploads/`)).text()
    expect(page).toContain('abc/card.webp')
    const href = /href="([^"]*X-Amz-Signature[^"]*)"/.exec(page)![1]!.replaceAll('&amp;', '&')
    expect(await (await fetch(href)).text()).toBe('card')
  })
})
