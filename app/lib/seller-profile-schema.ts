import { z } from '~/lib/zod'

/**
 * A seller's public profile (issue 18): what /profile's "Public profile"
 * section edits and /sellers/{username} shows. The username rule is the
 * database's CHECK (migrations/0001), plus words that name the site's own pages
 * or would impersonate it.
 */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9_-]{1,38}$/
export const DISPLAY_NAME_MAX = 100
export const BIO_MAX = 1000

export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'api',
  'app',
  'auth',
  'billing',
  'checkout',
  'cookies',
  'create-listing',
  'dashboard',
  'disclaimer',
  'faq',
  'forkmarket',
  'github',
  'healthz',
  'help',
  'listing',
  'listings',
  'login',
  'logout',
  'marketplace',
  'me',
  'moderator',
  'my-purchases',
  'new',
  'null',
  'official',
  'payments',
  'privacy',
  'profile',
  'purchase-success',
  'purchases',
  'root',
  'security',
  'seller',
  'seller-dashboard',
  'sellers',
  'settings',
  'staff',
  'support',
  'system',
  'terms',
  'undefined',
  'uploads',
])

export const USERNAME_FORMAT_MESSAGE =
  'Usernames are 2–39 characters: lower-case letters, digits, "-" and "_", starting with a letter or digit'
export const USERNAME_RESERVED_MESSAGE = 'This username is reserved. Please choose another.'
export const USERNAME_TAKEN_MESSAGE = 'This username is already taken. Please choose another.'

export function usernameProblem(username: string): string | null {
  if (!USERNAME_PATTERN.test(username)) return USERNAME_FORMAT_MESSAGE
  if (RESERVED_USERNAMES.has(username) || username.startsWith('forkmarket')) return USERNAME_RESERVED_MESSAGE
  return null
}

export const SellerProfileSchema = z.object({
  username: z
    .string({ error: 'Enter a username' })
    .trim()
    .toLowerCase()
    .min(1, 'Enter a username')
    // The reserved words are checked by the server (a user may keep the name they were given).
    .regex(USERNAME_PATTERN, USERNAME_FORMAT_MESSAGE),
  displayName: z
    .string({ error: 'Enter a display name' })
    .trim()
    .min(1, 'Enter a display name')
    .max(DISPLAY_NAME_MAX, `Display names are at most ${DISPLAY_NAME_MAX} characters`),
  bio: z
    .string()
    .trim()
    .max(BIO_MAX, `The bio is at most ${BIO_MAX.toLocaleString('en-US')} characters`)
    .optional()
    .transform((v) => v ?? ''),
})
export type SellerProfileInput = z.output<typeof SellerProfileSchema>
