/**
 * The Cookie header of a browser holding `session`, as @supabase/ssr keeps it: the cookie
 * `sb-<first label of the Supabase host>-auth-token`, the value `base64-` + base64url(JSON), split into
 * `.0`, `.1`, … chunks past @supabase/ssr's 3,180 characters. For tests and the benchmark, which sign
 * in with `createSession` instead of a browser.
 */
const MAX_CHUNK = 3180

export function sessionCookieHeader(supabaseUrl: string, session: object): string {
  const name = `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`
  const value = `base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`
  if (value.length <= MAX_CHUNK) return `${name}=${value}`
  const chunks: string[] = []
  for (let i = 0; i * MAX_CHUNK < value.length; i++) chunks.push(`${name}.${i}=${value.slice(i * MAX_CHUNK, (i + 1) * MAX_CHUNK)}`)
  return chunks.join('; ')
}
