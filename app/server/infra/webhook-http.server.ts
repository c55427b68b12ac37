import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Posting to a URL a user gave us (outgoing webhooks, issue 29) without becoming a way into our
 * network (SSRF). The address is checked after DNS, at send time, and the connection goes to the
 * very address that was checked (the request's `lookup` is the check), so a name that resolves to a
 * public address for the check and a private one for the connection (DNS rebinding) gets nowhere.
 * Redirects are not followed (node:http never does), the answer is read up to a small cap, and the
 * whole exchange has one deadline. Knows nothing of webhooks' domain.
 */

/** `public`: production — https to public addresses only. `local`: also http(s) to loopback (localhost). */
export type AddressPolicy = 'public' | 'local'

export const SEND_TIMEOUT_MS = 10_000
/** How much of an answer is read; the rest is dropped with the connection. */
export const ANSWER_READ_CAP = 16 * 1024

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

// Every range that is not the public internet: this host, private networks (RFC 1918, carrier-grade
// NAT, unique-local IPv6), link-local (169.254/16 holds the cloud metadata service; fe80::/10),
// documentation, benchmarking, multicast and reserved space.
const NOT_PUBLIC = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6')

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), -compatible or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase()
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1]!
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (!hex) return null
  const high = parseInt(hex[1]!, 16)
  const low = parseInt(hex[2]!, 16)
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** Why `address` may not be connected to under `policy`, or null when it may. */
export function addressRefusal(address: string, policy: AddressPolicy): string | null {
  const family = isIP(address)
  if (family === 0) return `${address} is not an IP address`
  const v4 = family === 6 ? embeddedIpv4(address) : address
  const [checked, type] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const]
  if (policy === 'local' && LOOPBACK.check(checked, type)) return null
  if (NOT_PUBLIC.check(checked, type)) return `${address} is not a public address`
  return null
}

function isLoopback(address: string): boolean {
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : address
  return v4 ? LOOPBACK.check(v4, 'ipv4') : LOOPBACK.check(address, 'ipv6')
}

/** Why `url` may not be sent to under `policy` before any DNS (scheme, credentials, a literal address), or null. */
export function urlRefusal(url: string, policy: AddressPolicy): string | null {
  if (!URL.canParse(url)) return 'Not a URL'
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'Only https URLs are accepted'
  if (parsed.username || parsed.password) return 'A URL with a user name or password is not accepted'
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  const loopback = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isLoopback(host))
  const local = policy === 'local' && loopback
  if (parsed.protocol === 'http:' && !local)
    return policy === 'local' ? 'Only https URLs (or http://localhost) are accepted' : 'Only https URLs are accepted'
  if (isIP(host) !== 0) return addressRefusal(host, policy)
  if (loopback) return policy === 'local' ? null : `${host} is not a public address`
  return null
}

/** Resolves like dns.lookup, then refuses the whole answer when any address is not allowed. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      const refused = addresses.map((a) => addressRefusal(a.address, policy)).find((reason) => reason !== null)
      if (refused || addresses.length === 0) {
        const refusal = Object.assign(new Error(`Refused: ${hostname} resolves to ${refused ?? 'no address'}`), { code: 'EADDRREFUSED' })
        return callback(refusal, '', 0)
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
      return callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

export interface PostOutcome {
  /** The answer's status; null when there was none (refused, DNS, connection, timeout). */
  status: number | null
  /** What went wrong before an answer, or null. */
  error: string | null
  /** The answer's body, at most ANSWER_READ_CAP bytes, as text. */
  body: string
  durationMs: number
}

/** POSTs `body` to `url` under `policy`: no redirect followed, answer capped, one deadline for it all. */
export async function postGuarded(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { policy: AddressPolicy; timeoutMs?: number },
): Promise<PostOutcome> {
  const started = performance.now()
  const done = (status: number | null, error: string | null, text = ''): PostOutcome => ({
    status,
    error,
    body: text,
    durationMs: Math.round(performance.now() - started),
  })
  const refusal = urlRefusal(url, options.policy)
  if (refusal) return done(null, `Refused: ${refusal}`)
  const target = new URL(url)
  const client = target.protocol === 'https:' ? https : http
  return new Promise<PostOutcome>((resolve) => {
    let settled = false
    const finish = (outcome: PostOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      resolve(outcome)
    }
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body).toString(),
          'user-agent': 'Forkmarket-Webhooks/1.0',
        },
        lookup: guardedLookup(options.policy),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        let size = 0
        const settle = () => {
          response.destroy()
          finish(done(response.statusCode ?? null, null, Buffer.concat(chunks).subarray(0, ANSWER_READ_CAP).toString('utf8')))
        }
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          size += chunk.length
          if (size >= ANSWER_READ_CAP) settle()
        })
        response.on('end', settle)
        response.on('error', settle)
      },
    )
    const deadline = setTimeout(() => {
      request.destroy()
      finish(done(null, `Timed out after ${(options.timeoutMs ?? SEND_TIMEOUT_MS) / 1000} s`))
    }, options.timeoutMs ?? SEND_TIMEOUT_MS)
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(done(null, error.code === 'EADDRREFUSED' ? error.message : `${error.code ?? 'Error'}: ${error.message}`))
    })
    request.end(body)
  })
}
