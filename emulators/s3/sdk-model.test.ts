/**
 * The S3 emulator held to the AWS SDK's own model of S3 (the operation schemas `@aws-sdk/client-s3`
 * parses with, read through `@smithy/core/schema`): for each operation the app uses
 * (app/server/infra/storage.server.ts: PutObject, GetObject — plain and conditional — HeadObject,
 * DeleteObject; and ListObjectsV2, which `emulators/s3/import-local.ts` and the tests use), every field
 * the SDK returns must be a member of the operation's output shape, of the member's type (a
 * timestamp a valid Date, a number a finite number…) and of the value S3 documents (a quoted MD5 ETag,
 * the byte count…). And what S3 rejects, the emulator rejects with S3's status and error code, so the
 * SDK raises the same typed exception (`NoSuchKey`, `NoSuchBucket`, `NotFound`…) or error name.
 */
import { createHash } from 'node:crypto'
import {
  DeleteObjectCommand,
  DeleteObjectOutput$,
  GetObjectCommand,
  GetObjectOutput$,
  HeadObjectCommand,
  HeadObjectOutput$,
  ListObjectsV2Command,
  ListObjectsV2Output$,
  NoSuchBucket,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  PutObjectOutput$,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { NormalizedSchema } from '@smithy/core/schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startS3Emulator, type S3Emulator } from './server.ts'

const BUCKET = 'uploads'
const BODY = Buffer.from('a listing image, or near enough')
const MD5_ETAG = `"${createHash('md5').update(BODY).digest('hex')}"`

let emulator: S3Emulator
let client: S3Client

beforeAll(async () => {
  emulator = await startS3Emulator({ port: 0, buckets: [BUCKET] })
  client = clientWith(emulator.secretAccessKey)
})

afterAll(async () => {
  client.destroy()
  await emulator.close()
})

/** The app's client settings (app/server/infra/storage.server.ts createClient), without retries. */
function clientWith(secretAccessKey: string, accessKeyId = emulator.accessKeyId) {
  return new S3Client({
    region: emulator.region,
    endpoint: emulator.url,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  })
}

type Schema = Parameters<typeof NormalizedSchema.of>[0]

/**
 * Every field of an SDK output, checked against the member of the SDK's schema it sits in; returns
 * the problems found (empty when each field is a known member of the type the model gives it).
 */
function modelProblems(schema: NormalizedSchema, value: unknown, where: string): string[] {
  if (value === undefined) return []
  if (schema.isTimestampSchema()) {
    return value instanceof Date && !Number.isNaN(value.getTime()) ? [] : [`${where}: not a valid Date (${String(value)})`]
  }
  if (schema.isNumericSchema()) return typeof value === 'number' && Number.isFinite(value) ? [] : [`${where}: not a number`]
  if (schema.isBooleanSchema()) return typeof value === 'boolean' ? [] : [`${where}: not a boolean`]
  if (schema.isStringSchema()) return typeof value === 'string' ? [] : [`${where}: not a string`]
  if (schema.isBlobSchema() || schema.isStreaming()) {
    return typeof (value as { transformToByteArray?: unknown }).transformToByteArray === 'function' ? [] : [`${where}: not a stream`]
  }
  if (schema.isListSchema()) {
    if (!Array.isArray(value)) return [`${where}: not a list`]
    return value.flatMap((item, index) => modelProblems(schema.getValueSchema(), item, `${where}[${index}]`))
  }
  if (schema.isMapSchema()) {
    if (typeof value !== 'object' || value === null) return [`${where}: not a map`]
    return Object.entries(value).flatMap(([key, item]) => modelProblems(schema.getValueSchema(), item, `${where}.${key}`))
  }
  if (schema.isStructSchema()) {
    if (typeof value !== 'object' || value === null) return [`${where}: not a structure`]
    const members = new Map([...schema.structIterator()])
    return Object.entries(value).flatMap(([key, item]) => {
      if (key === '$metadata') return []
      const member = members.get(key)
      return member ? modelProblems(member, item, `${where}.${key}`) : [`${where}.${key}: not a member of ${schema.getName()}`]
    })
  }
  return [`${where}: a member type this check does not know`]
}

function expectModel(schema: Schema, output: object, status: number) {
  const normalized = NormalizedSchema.of(schema)
  expect(modelProblems(normalized, output, normalized.getName() ?? 'output')).toEqual([])
  const { $metadata } = output as { $metadata: { httpStatusCode?: number; requestId?: string; extendedRequestId?: string } }
  expect($metadata.httpStatusCode).toBe(status)
  expect($metadata.requestId).toMatch(/^[0-9A-F]{16}$/)
  expect($metadata.extendedRequestId).toBeTruthy()
}

/** The SDK's exception for a command S3 refuses. */
async function refusal(promise: Promise<unknown>): Promise<S3ServiceException> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  )
  if (!(outcome instanceof S3ServiceException)) throw new Error(`expected an S3ServiceException, got ${String(outcome)}`)
  return outcome
}

describe("S3 emulator answers, parsed by the AWS SDK's model", () => {
  it('PutObject: the ETag is the quoted MD5 of the body', async () => {
    const before = Date.now()
    const put = await client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: 'img/a.webp',
        Body: BODY,
        ContentType: 'image/webp',
        CacheControl: 'public, max-age=60',
      }),
    )
    expectModel(PutObjectOutput$, put, 200)
    expect(put).toMatchObject({ ETag: MD5_ETAG, ServerSideEncryption: 'AES256' })
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp' }))
    // HTTP dates have whole seconds.
    expect(head.LastModified!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
  })

  it('GetObject and HeadObject: ETag, LastModified, ContentLength, ContentType, CacheControl as stored', async () => {
    const get = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp' }))
    expectModel(GetObjectOutput$, get, 200)
    expect(get).toMatchObject({ ETag: MD5_ETAG, ContentLength: BODY.length, ContentType: 'image/webp', CacheControl: 'public, max-age=60' })
    expect(get).toMatchObject({ AcceptRanges: 'bytes', ServerSideEncryption: 'AES256' })
    expect(Buffer.from(await get.Body!.transformToByteArray()).equals(BODY)).toBe(true)

    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp' }))
    expectModel(HeadObjectOutput$, head, 200)
    expect(head).toMatchObject({ ETag: MD5_ETAG, ContentLength: BODY.length, ContentType: 'image/webp', LastModified: get.LastModified })
    expect(head.ServerSideEncryption).toBe('AES256')
  })

  it('an object stored without a Content-Type is served as binary/octet-stream, as S3 does', async () => {
    // The SDK itself sends application/octet-stream for a Buffer: a client that sends no type at all.
    const put = new PutObjectCommand({ Bucket: BUCKET, Key: 'raw/blob', Body: BODY })
    put.middlewareStack.add(
      (next) => (args) => {
        delete (args.request as { headers: Record<string, string> }).headers['content-type']
        return next(args)
      },
      { step: 'build' },
    )
    await client.send(put)
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'raw/blob' }))
    expect(head.ContentType).toBe('binary/octet-stream')
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'raw/blob' }))
  })

  it('GetObject with a Range: 206, the ContentRange and ContentLength of the part', async () => {
    const part = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp', Range: 'bytes=2-5' }))
    expectModel(GetObjectOutput$, part, 206)
    expect(part).toMatchObject({ ContentLength: 4, ContentRange: `bytes 2-5/${BODY.length}`, ETag: MD5_ETAG })
    expect(Buffer.from(await part.Body!.transformToByteArray()).toString()).toBe(BODY.subarray(2, 6).toString())
  })

  it('ListObjectsV2: keys with their Size, LastModified and ETag', async () => {
    const list = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'img/' }))
    expectModel(ListObjectsV2Output$, list, 200)
    expect(list).toMatchObject({ Name: BUCKET, Prefix: 'img/', KeyCount: 1, MaxKeys: 1000, IsTruncated: false })
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp' }))
    // S3 keeps whole seconds: the listing's LastModified is HEAD's, not a more precise one.
    expect(list.Contents).toEqual([
      expect.objectContaining({
        Key: 'img/a.webp',
        Size: BODY.length,
        ETag: MD5_ETAG,
        StorageClass: 'STANDARD',
        LastModified: head.LastModified,
      }),
    ])
  })

  it('DeleteObject: 204 with nothing else, for an existing and for a missing key alike', async () => {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'img/gone.webp', Body: BODY }))
    expectModel(DeleteObjectOutput$, await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'img/gone.webp' })), 204)
    expectModel(DeleteObjectOutput$, await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'img/gone.webp' })), 204)
  })
})

describe('S3 emulator refusals, as the AWS SDK names them', () => {
  it('a missing key: NoSuchKey (404) on GET, NotFound (404, no body) on HEAD', async () => {
    const get = await refusal(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/none.webp' })))
    expect(get).toBeInstanceOf(NoSuchKey)
    expect(get).toMatchObject({ name: 'NoSuchKey', $fault: 'client', message: 'The specified key does not exist.' })
    expect(get.$metadata).toMatchObject({ httpStatusCode: 404, requestId: expect.stringMatching(/^[0-9A-F]{16}$/) })

    const head = await refusal(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'img/none.webp' })))
    expect(head).toBeInstanceOf(NotFound)
    expect(head.$metadata.httpStatusCode).toBe(404)
  })

  it('a missing bucket: NoSuchBucket (404) on GET, PUT and DELETE, NotFound on HEAD', async () => {
    for (const command of [
      new GetObjectCommand({ Bucket: 'no-such-bucket', Key: 'a' }),
      new PutObjectCommand({ Bucket: 'no-such-bucket', Key: 'a', Body: BODY }),
      new DeleteObjectCommand({ Bucket: 'no-such-bucket', Key: 'a' }),
      new ListObjectsV2Command({ Bucket: 'no-such-bucket' }),
    ]) {
      const error = await refusal(client.send(command as GetObjectCommand))
      expect(error).toBeInstanceOf(NoSuchBucket)
      expect(error).toMatchObject({ message: 'The specified bucket does not exist', BucketName: 'no-such-bucket' })
      expect(error.$metadata.httpStatusCode).toBe(404)
    }
    const head = await refusal(client.send(new HeadObjectCommand({ Bucket: 'no-such-bucket', Key: 'a' })))
    expect(head).toBeInstanceOf(NotFound)
  })

  it('bad credentials: SignatureDoesNotMatch and InvalidAccessKeyId (403); on HEAD a bare 403', async () => {
    const wrongSecret = clientWith('not-the-secret')
    const signature = await refusal(wrongSecret.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp' })))
    expect(signature).toMatchObject({ name: 'SignatureDoesNotMatch', $fault: 'client' })
    expect(signature.$metadata.httpStatusCode).toBe(403)
    // A HEAD answer has no body to name the error: the SDK knows only the status (404 it calls NotFound).
    const head = await refusal(wrongSecret.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp' })))
    expect(head).toMatchObject({ name: 'Unknown', $fault: 'client' })
    expect(head.$metadata.httpStatusCode).toBe(403)
    wrongSecret.destroy()

    const unknownKey = clientWith(emulator.secretAccessKey, 'AKIAUNKNOWNKEY000000')
    const key = await refusal(unknownKey.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'img/b.webp', Body: BODY })))
    expect(key).toMatchObject({ name: 'InvalidAccessKeyId', AWSAccessKeyId: 'AKIAUNKNOWNKEY000000' })
    expect(key.$metadata.httpStatusCode).toBe(403)
    unknownKey.destroy()
  })

  it('a range past the end: InvalidRange (416); a failed If-Match: PreconditionFailed (412)', async () => {
    const range = await refusal(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp', Range: 'bytes=1000-' })))
    expect(range).toMatchObject({ name: 'InvalidRange', ActualObjectSize: String(BODY.length) })
    expect(range.$metadata.httpStatusCode).toBe(416)

    const condition = await refusal(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp', IfMatch: '"0000"' })))
    expect(condition).toMatchObject({ name: 'PreconditionFailed', Condition: 'If-Match' })
    expect(condition.$metadata.httpStatusCode).toBe(412)
  })

  it('a matching If-None-Match: 304 Not Modified, which the SDK raises with the status (what the app reads)', async () => {
    const notModified = await refusal(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'img/a.webp', IfNoneMatch: MD5_ETAG })))
    expect(notModified.$metadata.httpStatusCode).toBe(304)
    expect(notModified.name).toBe('Unknown')
  })

  it('without s3:ListBucket a missing key is AccessDenied (403), not NoSuchKey, as S3 hides it', async () => {
    const restricted = await startS3Emulator({ port: 0, buckets: [BUCKET], listBucketGranted: false })
    const restrictedClient = new S3Client({
      region: restricted.region,
      endpoint: restricted.url,
      forcePathStyle: true,
      credentials: { accessKeyId: restricted.accessKeyId, secretAccessKey: restricted.secretAccessKey },
      maxAttempts: 1,
    })
    try {
      await restrictedClient.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'there', Body: BODY }))
      expect((await restrictedClient.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'there' }))).ETag).toBe(MD5_ETAG)
      const get = await refusal(restrictedClient.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'missing' })))
      expect(get).toMatchObject({ name: 'AccessDenied', message: 'Access Denied' })
      expect(get.$metadata.httpStatusCode).toBe(403)
      const head = await refusal(restrictedClient.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'missing' })))
      expect(head.$metadata.httpStatusCode).toBe(403)
      const list = await refusal(restrictedClient.send(new ListObjectsV2Command({ Bucket: BUCKET })))
      expect(list.name).toBe('AccessDenied')
    } finally {
      restrictedClient.destroy()
      await restricted.close()
    }
  })

  it('a body that does not match its Content-MD5: BadDigest (400)', async () => {
    const wrong = createHash('md5').update('something else').digest('base64')
    const digest = await refusal(client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'img/c.webp', Body: BODY, ContentMD5: wrong })))
    expect(digest).toMatchObject({ name: 'BadDigest', $fault: 'client' })
    expect(digest.$metadata.httpStatusCode).toBe(400)
  })
})
