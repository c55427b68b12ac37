import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, rm, rmdir, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { config, ConfigError } from './env.server.ts'

/**
 * Where listing images live. By default an S3-compatible bucket (AWS S3,
 * Cloudflare R2, MinIO, Supabase Storage's S3 endpoint; locally the S3
 * emulator that `npm start` and the tests start), so every app instance sees
 * every upload. `STORAGE=local` keeps files under DATA_DIR/uploads instead:
 * only for a single instance. Either way the app serves images at
 * /uploads/<key> (routes/uploads.ts), so image URLs don't change with the
 * backend and the page's CSP (img-src 'self') holds.
 *
 * Keys are `<32 hex>/<rendition>.webp`, made by images.server.ts and never
 * rewritten (random, or a hash of the content for the demo images); anything
 * else is refused here, so no key can climb out of the uploads folder.
 */
export interface StoredObject {
  body: ReadableStream<Uint8Array>
  contentType: string
  size?: number
  /** A strong validator of this content (quoted), for ETag / If-None-Match. */
  etag?: string
  lastModified?: Date
}

/** The client's copy is current (If-None-Match matched): nothing to send. */
export interface NotModified {
  notModified: true
  etag?: string
}

export interface ImageStorage {
  readonly kind: 'local' | 's3'
  put(key: string, body: Buffer, contentType: string): Promise<void>
  /** The object, or NotModified when `ifNoneMatch` names its ETag, or null when there is none. */
  get(key: string, options?: { ifNoneMatch?: string }): Promise<StoredObject | NotModified | null>
  exists(key: string): Promise<boolean>
  delete(keys: string[]): Promise<void>
}

export const STORAGE_KEY = /^[a-f0-9]{32}\/(?:card|full)\.webp$/

export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key)
}

function assertKey(key: string) {
  if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`)
}

const CONTENT_TYPES: Record<string, string> = { '.webp': 'image/webp' }
/** Keys are never rewritten, so a cache may keep an image for a year. */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable'

/** Whether an If-None-Match header names this ETag (weak comparison, as for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false
  const bare = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => bare(tag) === '*' || bare(tag) === bare(etag))
}

export function localDiskStorage(root: string): ImageStorage {
  const fileFor = (key: string) => {
    assertKey(key)
    return path.join(root, ...key.split('/'))
  }
  return {
    kind: 'local',
    async put(key, body) {
      const file = fileFor(key)
      await mkdir(path.dirname(file), { recursive: true })
      // 'wx': keys are random; never overwrite an existing image.
      await writeFile(file, body, { flag: 'wx' })
    },
    async get(key, options = {}) {
      const file = fileFor(key)
      try {
        const info = await stat(file)
        if (!info.isFile()) return null
        // The file is never rewritten: its key, size and time identify its content.
        const etag = `"${createHash('sha256').update(`${key}:${info.size}:${info.mtimeMs}`).digest('hex').slice(0, 32)}"`
        if (etagMatches(options.ifNoneMatch, etag)) return { notModified: true, etag }
        const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>
        const contentType = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream'
        return { body, size: info.size, contentType, etag, lastModified: info.mtime }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async exists(key) {
      return stat(fileFor(key)).then(
        (info) => info.isFile(),
        () => false,
      )
    },
    async delete(keys) {
      const dirs = new Set<string>()
      for (const key of keys) {
        const file = fileFor(key)
        await rm(file, { force: true })
        dirs.add(path.dirname(file))
      }
      // Remove the per-image folder once both renditions are gone.
      for (const dir of dirs) await rmdir(dir).catch(() => undefined)
    },
  }
}

export interface S3StorageOptions {
  bucket: string
  region: string
  /** Unset: AWS S3 of the region. R2, MinIO, Supabase Storage, the emulator: their S3 API's URL. */
  endpoint?: string
  /** Unset: the SDK's default chain (IAM role, AWS_* variables…). */
  credentials?: { accessKeyId: string; secretAccessKey: string }
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, Supabase, the emulator). */
  forcePathStyle?: boolean
}

const status = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode

/**
 * S3 answers GET/HEAD of a missing key with 403, not 404, when the key pair lacks s3:ListBucket on the
 * bucket (it will not tell a missing key from a forbidden one): the app cannot tell either, so it
 * says what to grant instead of failing with a bare "AccessDenied"/"Unknown".
 */
export class StorageAccessDeniedError extends Error {
  constructor(bucket: string, key: string, cause: unknown) {
    super(
      `The object store refused to read ${bucket}/${key} (403 Access Denied). S3 answers 403 instead of 404 for a missing key ` +
        `when the key pair lacks s3:ListBucket: grant s3:ListBucket on the bucket and s3:GetObject on its objects (docs/how-it-works.md, "Shared state").`,
      { cause },
    )
    this.name = 'StorageAccessDeniedError'
  }
}

type Sdk = typeof import('@aws-sdk/client-s3')
/** The SDK is loaded on first use: importing it takes most of a second, which start-up checks and STORAGE=local never need. */
let sdk: Promise<Sdk> | undefined
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'))

/** An S3-compatible bucket through the AWS SDK. */
export function s3Storage(options: S3StorageOptions): ImageStorage {
  let client: S3Client | undefined
  const connect = async () => {
    const s3 = await loadSdk()
    client ??= createClient(s3, options)
    return { s3, client }
  }
  const Bucket = options.bucket
  return {
    kind: 's3',
    async put(key, body, contentType) {
      assertKey(key)
      const { s3, client } = await connect()
      await client.send(
        new s3.PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, CacheControl: IMAGE_CACHE_CONTROL }),
      )
    },
    async get(key, { ifNoneMatch } = {}) {
      assertKey(key)
      try {
        const { s3, client } = await connect()
        const object = await client.send(new s3.GetObjectCommand({ Bucket, Key: key, IfNoneMatch: ifNoneMatch }))
        if (!object.Body) return null
        return {
          body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          contentType: object.ContentType ?? CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream',
          size: object.ContentLength,
          etag: object.ETag,
          lastModified: object.LastModified,
        }
      } catch (error) {
        if (status(error) === 304) return { notModified: true, etag: ifNoneMatch }
        if ((error as Error | null)?.name === 'NoSuchKey' || status(error) === 404) return null
        if (status(error) === 403) throw new StorageAccessDeniedError(Bucket, key, error)
        throw error
      }
    },
    async exists(key) {
      assertKey(key)
      try {
        const { s3, client } = await connect()
        await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }))
        return true
      } catch (error) {
        if (status(error) === 404) return false
        if (status(error) === 403) throw new StorageAccessDeniedError(Bucket, key, error)
        throw error
      }
    },
    async delete(keys) {
      keys.forEach(assertKey)
      // One request per key: DeleteObjects needs a Content-MD5 that not every S3-compatible store takes.
      const { s3, client } = await connect()
      for (const key of keys) await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }))
    },
  }
}

function createClient(s3: Sdk, options: S3StorageOptions): S3Client {
  return new s3.S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials: options.credentials,
    // Checksums only where S3 requires them: some S3-compatible stores reject the SDK's newer default CRC32s.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // An unreachable store fails the request in seconds instead of holding it.
    requestHandler: { connectionTimeout: 3_000, requestTimeout: 15_000 },
  })
}

let configured: ImageStorage | undefined

/** The storage chosen by the environment (read once per process). */
export function getStorage(): ImageStorage {
  if (configured) return configured
  const env = config()
  if (env.STORAGE === 'local') {
    configured = localDiskStorage(path.join(env.DATA_DIR, 'uploads'))
    return configured
  }
  if (!env.S3_BUCKET) {
    throw new ConfigError([
      'S3_BUCKET is not set: start the app with npm start or npm run dev (they start the local S3 emulator), set the S3_* variables, or STORAGE=local for a single instance',
    ])
  }
  const credentials =
    env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
      : undefined
  configured = s3Storage({
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    credentials,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  })
  return configured
}

/** Tests point storage elsewhere (or reset it after changing the environment). */
export function setStorageForTesting(storage: ImageStorage | undefined) {
  configured = storage
}
