/**
 * AWS Signature Version 4, as S3 checks it: the Authorization header form and
 * the presigned-URL (query) form. The emulator recomputes the signature from
 * the request it received — canonical request, string to sign, signing key —
 * and compares; nothing is trusted from the client but the access key id.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

export const ALGORITHM = 'AWS4-HMAC-SHA256'
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD'
/** S3 refuses requests signed more than 15 minutes from its clock. */
export const MAX_SKEW_MS = 15 * 60_000
/** A presigned URL may live 7 days at most. */
export const MAX_PRESIGN_SECONDS = 604_800

/** An S3 error: its code, HTTP status, message and the extra elements S3 adds to the XML. */
export class S3Error extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'S3Error'
  }
}

export interface Credentials {
  accessKeyId: string
  secretAccessKey: string
}

export interface SignedRequest {
  method: string
  /** The raw request target (path and query) as received. */
  url: string
  headers: IncomingHttpHeaders
}

export interface VerifiedSignature {
  accessKeyId: string
  /** What x-amz-content-sha256 (or the presigned form) promises about the body: a hex hash or UNSIGNED-PAYLOAD. */
  payloadHash: string
}

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/** RFC 3986 encoding as SigV4 wants it: only A-Z a-z 0-9 - . _ ~ stay, the rest is %XX (upper case). */
export function uriEncode(value: string, keepSlash = false): string {
  let out = ''
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/')) out += char
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

function decode(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, '%20'))
  } catch {
    throw new S3Error('InvalidURI', 400, "Couldn't parse the specified URI.")
  }
}

/** The path and query of a raw request target, decoded (the query in order, repeats kept). */
export function splitTarget(url: string): { path: string; query: Array<[string, string]> } {
  const at = url.indexOf('?')
  const rawPath = at < 0 ? url : url.slice(0, at)
  const rawQuery = at < 0 ? '' : url.slice(at + 1)
  const query: Array<[string, string]> = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=')
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))]
    })
  let path: string
  try {
    path = decodeURIComponent(rawPath)
  } catch {
    throw new S3Error('InvalidURI', 400, "Couldn't parse the specified URI.")
  }
  return { path, query }
}

/** SigV4's canonical request for S3 (the path is encoded once, not normalised). */
export function canonicalRequest(
  method: string,
  path: string,
  query: Array<[string, string]>,
  headers: IncomingHttpHeaders,
  signedHeaders: string[],
  payloadHash: string,
): string {
  const canonicalQuery = query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = headers[name]
      const joined = Array.isArray(value) ? value.join(',') : (value ?? '')
      return `${name}:${joined.trim().replace(/\s+/g, ' ')}\n`
    })
    .join('')
  return [method, uriEncode(path, true), canonicalQuery, canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n')
}

export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')
}

export function signature(secret: string, scope: Scope, stringToSign: string): string {
  return createHmac('sha256', signingKey(secret, scope.date, scope.region, scope.service))
    .update(stringToSign, 'utf8')
    .digest('hex')
}

interface Scope {
  accessKeyId: string
  date: string
  region: string
  service: string
}

/** `AKID/20261123/us-east-1/s3/aws4_request` */
function parseCredential(credential: string, expectedRegion: string, malformed: (message: string) => S3Error): Scope {
  const parts = credential.split('/')
  if (parts.length !== 5 || parts[4] !== 'aws4_request')
    throw malformed(`the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`)
  const [accessKeyId, date, region, service] = parts as [string, string, string, string]
  if (!/^\d{8}$/.test(date)) throw malformed(`Invalid credential date "${date}". This date is not the same as X-Amz-Date: "${date}".`)
  if (region !== expectedRegion) throw malformed(`the region '${region}' is wrong; expecting '${expectedRegion}'`)
  if (service !== 's3') throw malformed(`the service '${service}' is wrong; expecting 's3'`)
  return { accessKeyId, date, region, service }
}

/** `20261123T225500Z` → milliseconds, or NaN. */
export function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value)
  if (!m) return Number.NaN
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number]
  return Date.UTC(y, mo - 1, d, h, mi, s)
}

export function formatAmzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * Checks a request's SigV4 signature. Returns who signed it and the promised
 * payload hash (the caller compares it with the body), or throws the S3Error
 * S3 would answer with. No signature at all: AccessDenied (nothing here is public).
 */
export function verifySignature(
  request: SignedRequest,
  options: { region: string; now: number; secretFor: (accessKeyId: string) => string | undefined },
): VerifiedSignature {
  const { path, query } = splitTarget(request.url)
  const authorization = header(request.headers, 'authorization')
  const queryAlgorithm = query.find(([k]) => k === 'X-Amz-Algorithm')?.[1]
  if (authorization !== undefined && queryAlgorithm !== undefined) {
    throw new S3Error(
      'InvalidArgument',
      400,
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified',
    )
  }
  if (authorization !== undefined) return verifyHeader(request, path, query, authorization, options)
  if (queryAlgorithm !== undefined) return verifyQuery(request, path, query, queryAlgorithm, options)
  throw new S3Error('AccessDenied', 403, 'Access Denied')
}

function checkSignature(secret: string, scope: Scope, amzDate: string, canonical: string, provided: string) {
  const stringToSign = [ALGORITHM, amzDate, `${scope.date}/${scope.region}/${scope.service}/aws4_request`, sha256Hex(canonical)].join('\n')
  const expected = Buffer.from(signature(secret, scope, stringToSign), 'utf8')
  const given = Buffer.from(provided, 'utf8')
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new S3Error(
      'SignatureDoesNotMatch',
      403,
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      {
        AWSAccessKeyId: scope.accessKeyId,
        StringToSign: stringToSign,
        SignatureProvided: provided,
        StringToSignBytes: Buffer.from(stringToSign)
          .toString('hex')
          .replace(/(..)(?!$)/g, '$1 '),
        CanonicalRequest: canonical,
        CanonicalRequestBytes: Buffer.from(canonical)
          .toString('hex')
          .replace(/(..)(?!$)/g, '$1 '),
      },
    )
  }
}

function secretOf(options: { secretFor: (id: string) => string | undefined }, accessKeyId: string): string {
  const secret = options.secretFor(accessKeyId)
  if (secret === undefined) {
    throw new S3Error('InvalidAccessKeyId', 403, 'The AWS Access Key Id you provided does not exist in our records.', {
      AWSAccessKeyId: accessKeyId,
    })
  }
  return secret
}

function verifyHeader(
  request: SignedRequest,
  path: string,
  query: Array<[string, string]>,
  authorization: string,
  options: { region: string; now: number; secretFor: (id: string) => string | undefined },
): VerifiedSignature {
  const malformed = (message: string) =>
    new S3Error('AuthorizationHeaderMalformed', 400, `The authorization header is malformed; ${message}`)
  if (!authorization.startsWith(`${ALGORITHM} `)) {
    if (authorization.startsWith('AWS '))
      throw new S3Error(
        'InvalidRequest',
        400,
        'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.',
      )
    throw malformed('the authorization header requires the AWS4-HMAC-SHA256 algorithm.')
  }
  const fields = new Map<string, string>()
  for (const part of authorization.slice(ALGORITHM.length + 1).split(',')) {
    const eq = part.indexOf('=')
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim())
  }
  const credential = fields.get('Credential')
  const signedHeadersText = fields.get('SignedHeaders')
  const provided = fields.get('Signature')
  if (!credential || !signedHeadersText || !provided) {
    throw malformed('the authorization header requires the parameters Credential, SignedHeaders and Signature.')
  }
  const scope = parseCredential(credential, options.region, malformed)
  const secret = secretOf(options, scope.accessKeyId)

  const amzDate = header(request.headers, 'x-amz-date')
  const dateHeader = header(request.headers, 'date')
  const requestTime = amzDate !== undefined ? parseAmzDate(amzDate) : dateHeader !== undefined ? Date.parse(dateHeader) : Number.NaN
  if (Number.isNaN(requestTime)) {
    throw new S3Error('AccessDenied', 403, 'AWS authentication requires a valid Date or x-amz-date header')
  }
  if (Math.abs(requestTime - options.now) > MAX_SKEW_MS) {
    throw new S3Error('RequestTimeTooSkewed', 403, 'The difference between the request time and the current time is too large.', {
      RequestTime: amzDate ?? dateHeader ?? '',
      ServerTime: new Date(options.now).toISOString(),
      MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
    })
  }
  const stamp = amzDate ?? formatAmzDate(requestTime)
  if (stamp.slice(0, 8) !== scope.date) {
    throw malformed(`Invalid credential date "${scope.date}". This date is not the same as X-Amz-Date: "${stamp.slice(0, 8)}".`)
  }

  const signedHeaders = signedHeadersText.split(';')
  if (!signedHeaders.includes('host')) throw malformed("the SignedHeaders must include 'host'.")
  for (const name of Object.keys(request.headers)) {
    if (name.startsWith('x-amz-') && !signedHeaders.includes(name)) {
      throw new S3Error('AccessDenied', 403, `There were headers present in the request which were not signed`, { HeadersNotSigned: name })
    }
  }
  const payloadHash = header(request.headers, 'x-amz-content-sha256')
  if (payloadHash === undefined) {
    throw new S3Error('InvalidRequest', 400, 'Missing required header for this request: x-amz-content-sha256')
  }
  if (payloadHash.startsWith('STREAMING-')) {
    throw new S3Error(
      'NotImplemented',
      501,
      `A header you provided implies functionality that is not implemented (x-amz-content-sha256: ${payloadHash}; the emulator takes whole bodies)`,
      {
        Header: 'x-amz-content-sha256',
      },
    )
  }
  if (payloadHash !== UNSIGNED_PAYLOAD && !/^[0-9a-f]{64}$/.test(payloadHash)) {
    throw new S3Error('InvalidArgument', 400, 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-… or a valid sha256 value.')
  }
  const canonical = canonicalRequest(request.method, path, query, request.headers, signedHeaders, payloadHash)
  checkSignature(secret, scope, stamp, canonical, provided)
  return { accessKeyId: scope.accessKeyId, payloadHash }
}

function verifyQuery(
  request: SignedRequest,
  path: string,
  query: Array<[string, string]>,
  algorithm: string,
  options: { region: string; now: number; secretFor: (id: string) => string | undefined },
): VerifiedSignature {
  const malformed = (message: string) =>
    new S3Error('AuthorizationQueryParametersError', 400, `Error parsing the X-Amz-Credential parameter; ${message}`)
  const param = (name: string) => query.find(([k]) => k === name)?.[1]
  if (algorithm !== ALGORITHM)
    throw new S3Error('AuthorizationQueryParametersError', 400, 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"')
  const credential = param('X-Amz-Credential')
  const amzDate = param('X-Amz-Date')
  const expires = param('X-Amz-Expires')
  const signedHeadersText = param('X-Amz-SignedHeaders')
  const provided = param('X-Amz-Signature')
  if (!credential || !amzDate || !expires || !signedHeadersText || !provided) {
    throw new S3Error(
      'AuthorizationQueryParametersError',
      400,
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    )
  }
  const scope = parseCredential(credential, options.region, malformed)
  const secret = secretOf(options, scope.accessKeyId)
  const signedAt = parseAmzDate(amzDate)
  const lifetime = Number(expires)
  if (Number.isNaN(signedAt))
    throw new S3Error('AuthorizationQueryParametersError', 400, "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
  if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_PRESIGN_SECONDS) {
    throw new S3Error('AuthorizationQueryParametersError', 400, 'X-Amz-Expires must be less than a week (in seconds) that is 604800')
  }
  if (amzDate.slice(0, 8) !== scope.date)
    throw malformed(`Invalid credential date "${scope.date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`)
  if (signedAt - options.now > MAX_SKEW_MS) throw new S3Error('AccessDenied', 403, 'Request is not valid yet')
  if (options.now > signedAt + lifetime * 1000) {
    throw new S3Error('AccessDenied', 403, 'Request has expired', {
      'X-Amz-Expires': expires,
      Expires: new Date(signedAt + lifetime * 1000).toISOString(),
      ServerTime: new Date(options.now).toISOString(),
    })
  }
  const signedHeaders = signedHeadersText.split(';')
  if (!signedHeaders.includes('host'))
    throw new S3Error('AuthorizationQueryParametersError', 400, "X-Amz-SignedHeaders must include 'host'.")
  const payloadHash = param('X-Amz-Content-Sha256') ?? header(request.headers, 'x-amz-content-sha256') ?? UNSIGNED_PAYLOAD
  const unsignedQuery = query.filter(([k]) => k !== 'X-Amz-Signature')
  const canonical = canonicalRequest(request.method, path, unsignedQuery, request.headers, signedHeaders, payloadHash)
  checkSignature(secret, scope, amzDate, canonical, provided)
  return { accessKeyId: scope.accessKeyId, payloadHash }
}

/** A presigned GET URL, signed the way the SDK's presigner does (the emulator's browse page links objects with it). */
export function presignGet(options: {
  origin: string
  path: string
  credentials: Credentials
  region: string
  now: number
  expiresSeconds: number
}): string {
  const amzDate = formatAmzDate(options.now)
  const scope = { accessKeyId: options.credentials.accessKeyId, date: amzDate.slice(0, 8), region: options.region, service: 's3' }
  const host = new URL(options.origin).host
  const query: Array<[string, string]> = [
    ['X-Amz-Algorithm', ALGORITHM],
    ['X-Amz-Credential', `${scope.accessKeyId}/${scope.date}/${scope.region}/s3/aws4_request`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(options.expiresSeconds)],
    ['X-Amz-SignedHeaders', 'host'],
  ]
  const canonical = canonicalRequest('GET', options.path, query, { host }, ['host'], UNSIGNED_PAYLOAD)
  const stringToSign = [ALGORITHM, amzDate, `${scope.date}/${scope.region}/s3/aws4_request`, sha256Hex(canonical)].join('\n')
  const signed = signature(options.credentials.secretAccessKey, scope, stringToSign)
  const search = [...query, ['X-Amz-Signature', signed] as [string, string]].map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join('&')
  return `${options.origin}${uriEncode(options.path, true)}?${search}`
}
