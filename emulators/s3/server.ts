/**
 * A local stand-in for an S3-compatible object store, for `npm start` and the
 * tests: path-style requests (`http://host:port/<bucket>/<key>`), every request
 * signed with AWS Signature V4 (header or presigned query) and checked like S3
 * checks it, answers in S3's XML shapes and error codes. The app talks to it
 * through the unchanged `@aws-sdk/client-s3`, exactly as to AWS S3, R2, MinIO
 * or Supabase Storage. Operations: ListBuckets, CreateBucket, HeadBucket,
 * DeleteBucket, GetBucketLocation, ListObjectsV2, PutObject, GetObject (Range,
 * conditional), HeadObject, DeleteObject. Not for production: one key pair,
 * no ACLs or policies, no multipart uploads, no versioning.
 *
 * `GET /_emulator/` is a page for people: the buckets and their objects, each
 * linked with a presigned URL (the same query authentication S3 checks).
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { crc32 } from 'node:zlib'
import { listen, urlHost } from '../support/http.ts'
import { etagMatches, header, listObjectsV2Document, objectHeaders, parseRange, precondition, SSE_S3 } from './objects.ts'
import { presignGet, S3Error, sha256Hex, splitTarget, UNSIGNED_PAYLOAD, verifySignature } from './sigv4.ts'
import { ObjectStore, type ObjectMeta } from './store.ts'
import { renderBrowsePage } from './views.ts'
import { errorDocument, xmlDocument, type XmlNode } from './xml.ts'

export interface S3EmulatorOptions {
  /** Default 12113; 0 picks a free port. */
  port?: number
  /** Default '127.0.0.1'. */
  host?: string
  /** Objects are kept under this folder; omit to keep them in memory. */
  dataDir?: string
  /** Default 'us-east-1': a request signed for another region is refused, as S3 does. */
  region?: string
  /** The one key pair the emulator accepts (default: a fixed id and a random secret). */
  accessKeyId?: string
  secretAccessKey?: string
  /** Buckets created at start when missing. */
  buckets?: string[]
  /** Largest PutObject body (default 50 MB; S3's own limit is 5 GB). */
  maxObjectBytes?: number
  /** Millisecond clock, default Date.now (tests move it). */
  now?: () => number
  /**
   * Whether the key pair holds s3:ListBucket on the buckets (default true). Without it S3 does not
   * tell a missing key from a forbidden one: GET and HEAD of a missing key answer 403 Access Denied,
   * not 404, and ListObjectsV2 is refused.
   */
  listBucketGranted?: boolean
}

export interface S3Emulator {
  /** e.g. 'http://127.0.0.1:12113': the client's endpoint (forcePathStyle: true). */
  url: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  store: ObjectStore
  close(): Promise<void>
}

export const DEFAULT_S3_EMULATOR_PORT = 12113
const OWNER = { ID: 'f0c4a1f7e0c5b1d2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6', DisplayName: 'forkmarket-local' }
/** What S3 serves an object stored without a Content-Type as. */
const DEFAULT_CONTENT_TYPE = 'binary/octet-stream'
/** Headers S3 stores with an object and sends back with it. */
const STORED_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires']
const CHECKSUMS: Record<string, (body: Buffer) => string> = {
  crc32: (body) => {
    const value = Buffer.alloc(4)
    value.writeUInt32BE(crc32(body))
    return value.toString('base64')
  },
  sha1: (body) => createHash('sha1').update(body).digest('base64'),
  sha256: (body) => createHash('sha256').update(body).digest('base64'),
}

export async function startS3Emulator(options: S3EmulatorOptions = {}): Promise<S3Emulator> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error(
      'Refusing to start the S3 emulator with NODE_ENV=production: configure a real S3-compatible store (S3_BUCKET, S3_ENDPOINT…).',
    )
  }
  const now = options.now ?? Date.now
  const region = options.region ?? 'us-east-1'
  const accessKeyId = options.accessKeyId ?? 'FORKMARKETLOCALKEY01'
  const secretAccessKey = options.secretAccessKey ?? randomBytes(30).toString('base64url')
  const maxObjectBytes = options.maxObjectBytes ?? 50 * 1024 * 1024
  const store = await ObjectStore.open(options.dataDir)
  for (const bucket of options.buckets ?? []) await store.createBucket(bucket, now())

  const server = createServer()
  const host = options.host ?? '127.0.0.1'
  const port = await listen(server, options.port ?? DEFAULT_S3_EMULATOR_PORT, host, 'S3 emulator')
  const url = `http://${urlHost(host)}:${port}`
  const listBucketGranted = options.listBucketGranted ?? true
  const context: Context = { store, region, now, maxObjectBytes, url, listBucketGranted, credentials: { accessKeyId, secretAccessKey } }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(context, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, req, new S3Error('InternalError', 500, 'We encountered an internal error. Please try again.'))
      else res.destroy()
      console.error('[s3-emulator]', error)
    })
  })
  return {
    url,
    region,
    accessKeyId,
    secretAccessKey,
    store,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        server.closeAllConnections()
      }),
  }
}

interface Context {
  store: ObjectStore
  region: string
  now: () => number
  maxObjectBytes: number
  url: string
  listBucketGranted: boolean
  credentials: { accessKeyId: string; secretAccessKey: string }
}

function requestIds() {
  return { requestId: randomBytes(8).toString('hex').toUpperCase(), hostId: randomBytes(32).toString('base64') }
}

function baseHeaders(res: ServerResponse) {
  const ids = requestIds()
  res.setHeader('x-amz-request-id', ids.requestId)
  res.setHeader('x-amz-id-2', ids.hostId)
  res.setHeader('Server', 'AmazonS3')
  // The SDK corrects its clock from this header after a RequestTimeTooSkewed.
  res.setHeader('Date', new Date().toUTCString())
  return ids
}

function sendError(res: ServerResponse, req: IncomingMessage, error: S3Error, resource?: string) {
  const { requestId, hostId } = baseHeaders(res)
  res.statusCode = error.status
  // HEAD answers carry no body, so S3 sends only the status (the SDK names it NotFound, Forbidden…).
  if (req.method === 'HEAD') {
    res.end()
    return
  }
  const details = { ...(resource ? { Resource: resource } : {}), ...error.details }
  const body = errorDocument(error.code, error.message, details, requestId, hostId)
  res.setHeader('Content-Type', 'application/xml')
  res.setHeader('Content-Length', Buffer.byteLength(body))
  res.end(body)
}

function sendXml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  baseHeaders(res)
  res.statusCode = status
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  res.setHeader('Content-Type', 'application/xml')
  res.setHeader('Content-Length', Buffer.byteLength(body))
  res.end(body)
}

function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
  baseHeaders(res)
  res.statusCode = status
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  if (status !== 204 && status !== 304) res.setHeader('Content-Length', '0')
  res.end()
}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > max) {
    req.resume()
    throw new S3Error('EntityTooLarge', 400, 'Your proposed upload exceeds the maximum allowed size', {
      ProposedSize: String(declared),
      MaxSizeAllowed: String(max),
    })
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > max)
      throw new S3Error('EntityTooLarge', 400, 'Your proposed upload exceeds the maximum allowed size', { MaxSizeAllowed: String(max) })
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

async function handle(ctx: Context, req: IncomingMessage, res: ServerResponse) {
  const method = req.method ?? 'GET'
  const target = req.url ?? '/'
  let resource = '/'
  try {
    const { path, query } = splitTarget(target)
    resource = path
    if (path === '/_emulator' || path.startsWith('/_emulator/')) return browse(ctx, req, res, path)
    const body = await readBody(req, ctx.maxObjectBytes)
    const signed = verifySignature(
      { method, url: target, headers: req.headers },
      {
        region: ctx.region,
        now: ctx.now(),
        secretFor: (id) => (id === ctx.credentials.accessKeyId ? ctx.credentials.secretAccessKey : undefined),
      },
    )
    if (signed.payloadHash !== UNSIGNED_PAYLOAD && signed.payloadHash !== sha256Hex(body)) {
      throw new S3Error('XAmzContentSHA256Mismatch', 400, "The provided 'x-amz-content-sha256' header does not match what was computed.", {
        ClientComputedContentSHA256: signed.payloadHash,
        S3ComputedContentSHA256: sha256Hex(body),
      })
    }
    const params = new Map(query)
    const slash = path.indexOf('/', 1)
    const bucket = slash < 0 ? path.slice(1) : path.slice(1, slash)
    const key = slash < 0 ? '' : path.slice(slash + 1)
    if (bucket === '') {
      if (method !== 'GET') throw methodNotAllowed(method, 'SERVICE')
      return listBuckets(ctx, res)
    }
    if (key === '') return await bucketOperation(ctx, req, res, method, bucket, params)
    return await objectOperation(ctx, req, res, method, bucket, key, params, body)
  } catch (error) {
    if (error instanceof S3Error) return sendError(res, req, error, resource)
    throw error
  }
}

function methodNotAllowed(method: string, resourceType: string) {
  return new S3Error('MethodNotAllowed', 405, 'The specified method is not allowed against this resource.', {
    Method: method,
    ResourceType: resourceType,
  })
}

function accessDenied() {
  return new S3Error('AccessDenied', 403, 'Access Denied')
}

function noSuchBucket(bucket: string) {
  return new S3Error('NoSuchBucket', 404, 'The specified bucket does not exist', { BucketName: bucket })
}

/** S3's general-purpose bucket naming rules (the common part). */
function assertBucketName(name: string) {
  const valid = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) && !name.includes('..') && !/^\d+\.\d+\.\d+\.\d+$/.test(name)
  if (!valid) throw new S3Error('InvalidBucketName', 400, 'The specified bucket is not valid.', { BucketName: name })
}

function listBuckets(ctx: Context, res: ServerResponse) {
  const buckets = ctx.store.bucketNames().map(({ name, createdAt }): XmlNode => [
    'Bucket',
    [
      ['Name', name],
      ['CreationDate', new Date(createdAt).toISOString()],
    ],
  ])
  sendXml(
    res,
    200,
    xmlDocument('ListAllMyBucketsResult', [
      [
        'Owner',
        [
          ['ID', OWNER.ID],
          ['DisplayName', OWNER.DisplayName],
        ],
      ],
      ['Buckets', buckets],
    ]),
  )
}

async function bucketOperation(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  bucket: string,
  params: Map<string, string>,
) {
  switch (method) {
    case 'PUT': {
      assertBucketName(bucket)
      if (!(await ctx.store.createBucket(bucket, ctx.now()))) {
        throw new S3Error(
          'BucketAlreadyOwnedByYou',
          409,
          'Your previous request to create the named bucket succeeded and you already own it.',
          { BucketName: bucket },
        )
      }
      return sendEmpty(res, 200, { Location: `/${bucket}` })
    }
    case 'HEAD':
      if (!ctx.store.hasBucket(bucket)) throw noSuchBucket(bucket)
      return sendEmpty(res, 200, { 'x-amz-bucket-region': ctx.region })
    case 'DELETE': {
      if (!ctx.store.hasBucket(bucket)) throw noSuchBucket(bucket)
      if ((await ctx.store.deleteBucket(bucket)) === 'not-empty') {
        throw new S3Error('BucketNotEmpty', 409, 'The bucket you tried to delete is not empty', { BucketName: bucket })
      }
      return sendEmpty(res, 204)
    }
    case 'GET': {
      if (!ctx.store.hasBucket(bucket)) throw noSuchBucket(bucket)
      if (params.has('location')) {
        const constraint = ctx.region === 'us-east-1' ? '' : ctx.region
        return sendXml(
          res,
          200,
          `<?xml version="1.0" encoding="UTF-8"?>\n<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${constraint}</LocationConstraint>`,
        )
      }
      if (params.get('list-type') !== '2') {
        throw new S3Error(
          'NotImplemented',
          501,
          'A header you provided implies functionality that is not implemented (the emulator lists with ListObjectsV2: list-type=2)',
        )
      }
      if (!ctx.listBucketGranted) throw accessDenied()
      return sendXml(res, 200, listObjectsV2Document(ctx.store, bucket, params))
    }
    default:
      throw methodNotAllowed(method, 'BUCKET')
  }
}

function assertKey(key: string) {
  if (Buffer.byteLength(key) > 1024)
    throw new S3Error('KeyTooLongError', 400, 'Your key is too long', { Size: String(Buffer.byteLength(key)), MaxSizeAllowed: '1024' })
}

async function objectOperation(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  bucket: string,
  key: string,
  params: Map<string, string>,
  body: Buffer,
) {
  if (!ctx.store.hasBucket(bucket)) throw noSuchBucket(bucket)
  assertKey(key)
  if (params.has('uploads') || params.has('uploadId')) {
    throw new S3Error('NotImplemented', 501, 'A header you provided implies functionality that is not implemented (multipart uploads)')
  }
  switch (method) {
    case 'PUT':
      return putObject(ctx, req, res, bucket, key, body)
    case 'GET':
    case 'HEAD': {
      const noSuchKey = ctx.listBucketGranted
        ? new S3Error('NoSuchKey', 404, 'The specified key does not exist.', { Key: key })
        : accessDenied()
      const meta = ctx.store.head(bucket, key)
      if (!meta) throw noSuchKey
      const outcome = precondition(req, meta)
      if (outcome === 412)
        throw new S3Error('PreconditionFailed', 412, 'At least one of the pre-conditions you specified did not hold', {
          Condition: 'If-Match',
        })
      if (outcome === 304) return sendEmpty(res, 304, { ETag: meta.etag, 'Last-Modified': new Date(meta.lastModified).toUTCString() })
      const range = parseRange(header(req, 'range'), meta.size)
      const headers = objectHeaders(meta, range === null && header(req, 'x-amz-checksum-mode') === 'ENABLED')
      baseHeaders(res)
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
      if (method === 'HEAD') {
        res.setHeader('Content-Length', String(meta.size))
        return res.end()
      }
      const object = await ctx.store.get(bucket, key)
      if (!object) throw noSuchKey
      let content = object.body
      if (range) {
        res.statusCode = 206
        res.setHeader('Content-Range', `bytes ${range[0]}-${range[1]}/${meta.size}`)
        content = content.subarray(range[0], range[1] + 1)
      }
      res.setHeader('Content-Length', String(content.length))
      return res.end(content)
    }
    case 'DELETE':
      await ctx.store.delete(bucket, key)
      return sendEmpty(res, 204)
    default:
      throw methodNotAllowed(method, 'OBJECT')
  }
}

async function putObject(ctx: Context, req: IncomingMessage, res: ServerResponse, bucket: string, key: string, body: Buffer) {
  if (header(req, 'x-amz-copy-source') !== undefined) {
    throw new S3Error('NotImplemented', 501, 'A header you provided implies functionality that is not implemented (CopyObject)', {
      Header: 'x-amz-copy-source',
    })
  }
  const md5 = createHash('md5').update(body).digest()
  const contentMd5 = header(req, 'content-md5')
  if (contentMd5 !== undefined) {
    if (Buffer.from(contentMd5, 'base64').length !== 16)
      throw new S3Error('InvalidDigest', 400, 'The Content-MD5 you specified was invalid.', { 'Content-MD5': contentMd5 })
    if (contentMd5 !== md5.toString('base64')) {
      throw new S3Error('BadDigest', 400, 'The Content-MD5 you specified did not match what we received.', {
        ExpectedDigest: contentMd5,
        CalculatedDigest: md5.toString('base64'),
      })
    }
  }
  const checksums: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    const m = /^x-amz-checksum-(.+)$/.exec(name)
    if (!m || typeof value !== 'string' || m[1] === 'type' || m[1] === 'algorithm') continue
    const compute = CHECKSUMS[m[1]!]
    if (!compute) {
      throw new S3Error(
        'NotImplemented',
        501,
        `A header you provided implies functionality that is not implemented (the emulator checks CRC32, SHA1 and SHA256 checksums, not ${m[1]!.toUpperCase()})`,
        {
          Header: name,
        },
      )
    }
    if (compute(body) !== value) {
      throw new S3Error('BadDigest', 400, `The ${m[1]!.toUpperCase()} you specified did not match the calculated checksum.`)
    }
    checksums[m[1]!] = value
  }
  const existing = ctx.store.head(bucket, key)
  const ifNoneMatch = header(req, 'if-none-match')
  const ifMatch = header(req, 'if-match')
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() !== '*')
      throw new S3Error('NotImplemented', 501, 'A header you provided implies functionality that is not implemented', {
        Header: 'If-None-Match',
      })
    if (existing)
      throw new S3Error('PreconditionFailed', 412, 'At least one of the pre-conditions you specified did not hold', {
        Condition: 'If-None-Match',
      })
  }
  if (ifMatch !== undefined) {
    if (!existing) throw new S3Error('NoSuchKey', 404, 'The specified key does not exist.', { Key: key })
    if (!etagMatches(ifMatch, existing.etag))
      throw new S3Error('PreconditionFailed', 412, 'At least one of the pre-conditions you specified did not hold', {
        Condition: 'If-Match',
      })
  }
  const stored: Record<string, string> = {}
  for (const name of STORED_HEADERS) {
    const value = header(req, name)
    if (value !== undefined) stored[name] = value
  }
  const metadata: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') metadata[name.slice('x-amz-meta-'.length)] = value
  }
  const meta: ObjectMeta = {
    key,
    size: body.length,
    etag: `"${md5.toString('hex')}"`,
    contentType: header(req, 'content-type') ?? DEFAULT_CONTENT_TYPE,
    lastModified: ctx.now(),
    headers: stored,
    metadata,
    checksums,
  }
  await ctx.store.put(bucket, meta, body)
  const echoed = Object.fromEntries(Object.entries(checksums).map(([algorithm, value]) => [`x-amz-checksum-${algorithm}`, value]))
  sendEmpty(res, 200, { ETag: meta.etag, 'x-amz-server-side-encryption': SSE_S3, ...echoed })
}

/** The browsing page: buckets, their objects, each linked by a presigned URL valid for an hour. */
function browse(ctx: Context, req: IncomingMessage, res: ServerResponse, path: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, req, methodNotAllowed(req.method ?? '', 'PAGE'))
  const bucket = path.replace(/^\/_emulator\/?/, '').replace(/\/$/, '')
  if (bucket && !ctx.store.hasBucket(bucket)) return sendError(res, req, noSuchBucket(bucket))
  const origin = `http://${req.headers.host ?? new URL(ctx.url).host}`
  const html = renderBrowsePage({
    buckets: ctx.store.bucketNames().map((b) => b.name),
    bucket: bucket || undefined,
    objects: bucket
      ? ctx.store.list(bucket).map((object) => ({
          ...object,
          href: presignGet({
            origin,
            path: `/${bucket}/${object.key}`,
            credentials: ctx.credentials,
            region: ctx.region,
            now: ctx.now(),
            expiresSeconds: 3600,
          }),
        }))
      : [],
  })
  baseHeaders(res)
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
  res.setHeader('Content-Length', Buffer.byteLength(html))
  res.end(req.method === 'HEAD' ? undefined : html)
}
