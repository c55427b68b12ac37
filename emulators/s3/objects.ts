/** S3's object reads and listings: ListObjectsV2's document, GET/HEAD headers, preconditions and ranges. */
import type { IncomingMessage } from 'node:http'
import { S3Error } from './sigv4.ts'
import type { ObjectMeta, ObjectStore } from './store.ts'
import { xmlDocument, type XmlNode } from './xml.ts'

/** Every object is encrypted at rest with S3-managed keys (S3's default since 2023), and S3 says so. */
export const SSE_S3 = 'AES256'

export const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

/** ListObjectsV2 of a bucket: the ListBucketResult document. */
export function listObjectsV2Document(store: ObjectStore, bucket: string, params: Map<string, string>): string {
  const prefix = params.get('prefix') ?? ''
  const delimiter = params.get('delimiter') ?? ''
  const maxKeysText = params.get('max-keys') ?? '1000'
  const maxKeys = Number(maxKeysText)
  if (!/^\d+$/.test(maxKeysText))
    throw new S3Error('InvalidArgument', 400, 'Provided max-keys not an integer or within integer range', {
      ArgumentName: 'max-keys',
      ArgumentValue: maxKeysText,
    })
  const limit = Math.min(maxKeys, 1000)
  const token = params.get('continuation-token')
  let after = params.get('start-after') ?? ''
  if (token !== undefined) {
    const decoded = Buffer.from(token, 'base64').toString('utf8')
    if (!decoded.startsWith('k:'))
      throw new S3Error('InvalidArgument', 400, 'The continuation token provided is incorrect', { ArgumentName: 'continuation-token' })
    after = decoded.slice(2)
  }
  const urlEncoded = params.get('encoding-type') === 'url'
  const show = (value: string) => (urlEncoded ? encodeURIComponent(value).replace(/%2F/g, '/') : value)

  const contents: XmlNode[] = []
  const prefixes: string[] = []
  let count = 0
  let truncated = false
  let last = ''
  for (const object of store.list(bucket)) {
    if (!object.key.startsWith(prefix)) continue
    if (after && Buffer.compare(Buffer.from(object.key), Buffer.from(after)) <= 0) continue
    let common: string | undefined
    if (delimiter) {
      const at = object.key.indexOf(delimiter, prefix.length)
      if (at >= 0) common = object.key.slice(0, at + delimiter.length)
    }
    if (common !== undefined && prefixes.includes(common)) continue
    if (count >= limit) {
      truncated = true
      break
    }
    count++
    if (common !== undefined) {
      prefixes.push(common)
      // Continue after every key under this common prefix.
      last = `${common}\u{10FFFF}`
    } else {
      last = object.key
      contents.push([
        'Contents',
        [
          ['Key', show(object.key)],
          // S3 keeps whole seconds: a listing's time is the one HEAD gives (Last-Modified).
          ['LastModified', new Date(Math.floor(object.lastModified / 1000) * 1000).toISOString()],
          ['ETag', object.etag],
          ['Size', object.size],
          ['StorageClass', 'STANDARD'],
        ],
      ])
    }
  }
  const children: XmlNode[] = [
    ['Name', bucket],
    ['Prefix', show(prefix)],
    ...(delimiter ? [['Delimiter', show(delimiter)] as XmlNode] : []),
    ['MaxKeys', maxKeys],
    ...(urlEncoded ? [['EncodingType', 'url'] as XmlNode] : []),
    ['KeyCount', count],
    ['IsTruncated', truncated],
    ...(token !== undefined ? [['ContinuationToken', token] as XmlNode] : []),
    ...(truncated ? [['NextContinuationToken', Buffer.from(`k:${last}`).toString('base64')] as XmlNode] : []),
    ...(params.has('start-after') ? [['StartAfter', show(params.get('start-after')!)] as XmlNode] : []),
    ...contents,
    ...prefixes.map((p): XmlNode => ['CommonPrefixes', [['Prefix', show(p)]]]),
  ]
  return xmlDocument('ListBucketResult', children)
}

const unquote = (tag: string) => tag.trim().replace(/^W\//, '')
export function etagMatches(condition: string, etag: string): boolean {
  return condition
    .split(',')
    .map(unquote)
    .some((tag) => tag === '*' || tag === etag || `"${tag}"` === etag)
}

/** The object's headers on GET and HEAD. */
export function objectHeaders(meta: ObjectMeta, withChecksums: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': meta.contentType,
    ETag: meta.etag,
    'Last-Modified': new Date(meta.lastModified).toUTCString(),
    'Accept-Ranges': 'bytes',
    'x-amz-server-side-encryption': SSE_S3,
    ...meta.headers,
  }
  for (const [name, value] of Object.entries(meta.metadata)) headers[`x-amz-meta-${name}`] = value
  if (withChecksums) {
    for (const [algorithm, value] of Object.entries(meta.checksums)) headers[`x-amz-checksum-${algorithm}`] = value
    if (Object.keys(meta.checksums).length) headers['x-amz-checksum-type'] = 'FULL_OBJECT'
  }
  return headers
}

/** GET/HEAD preconditions (RFC 7232 order, as S3 applies them): 412 or 304, else null. */
export function precondition(req: IncomingMessage, meta: ObjectMeta): 304 | 412 | null {
  const seconds = Math.floor(meta.lastModified / 1000) * 1000
  const ifMatch = header(req, 'if-match')
  const ifUnmodifiedSince = header(req, 'if-unmodified-since')
  if (ifMatch !== undefined) {
    if (!etagMatches(ifMatch, meta.etag)) return 412
  } else if (ifUnmodifiedSince !== undefined) {
    const since = Date.parse(ifUnmodifiedSince)
    if (!Number.isNaN(since) && seconds > since) return 412
  }
  const ifNoneMatch = header(req, 'if-none-match')
  const ifModifiedSince = header(req, 'if-modified-since')
  if (ifNoneMatch !== undefined) {
    if (etagMatches(ifNoneMatch, meta.etag)) return 304
  } else if (ifModifiedSince !== undefined) {
    const since = Date.parse(ifModifiedSince)
    if (!Number.isNaN(since) && seconds <= since) return 304
  }
  return null
}

/** A single `bytes=` range → [start, end] inclusive; null for none or a form S3 ignores; throws when unsatisfiable. */
export function parseRange(value: string | undefined, size: number): [number, number] | null {
  if (!value) return null
  const m = /^bytes=(\d*)-(\d*)$/.exec(value.trim())
  if (!m || (m[1] === '' && m[2] === '')) return null
  let start: number
  let end: number
  if (m[1] === '') {
    const suffix = Number(m[2])
    start = Math.max(0, size - suffix)
    end = size - 1
    if (suffix === 0) start = size
  } else {
    start = Number(m[1])
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
    if (m[2] !== '' && Number(m[2]) < start) return null
  }
  if (start >= size) {
    throw new S3Error('InvalidRange', 416, 'The requested range is not satisfiable', {
      RangeRequested: value,
      ActualObjectSize: String(size),
    })
  }
  return [start, end]
}
