import { sql } from 'kysely'
import type { User } from '../../../db/schema.ts'
import { db } from '../infra/db.server.ts'
import { config } from '../infra/env.server.ts'

export interface UserSyncPayload {
  id: string
  email: string
  displayName: string
  avatarUrl: string | null
  /** The provider's user name (GitHub login), preferred over the e-mail for the username. */
  preferredUsername?: string | null
}

export type PublicUser = Pick<User, 'id' | 'username' | 'displayName' | 'email' | 'isAdmin' | 'avatarUrl' | 'bio'>

const PUBLIC_COLUMNS = ['id', 'username', 'displayName', 'email', 'isAdmin', 'avatarUrl', 'bio'] as const

export function adminEmails(): Set<string> {
  return new Set(config().ADMIN_EMAILS)
}

/** Spec: displayName is the full name, else the part of the e-mail before the @. */
export function displayNameFor(email: string, fullName?: string | null): string {
  const name = fullName?.trim()
  return (name || email.split('@')[0] || email).slice(0, 100)
}

/** A username candidate: lower-case letters, digits, '-' and '_', 2–39 characters. */
export function usernameBase(source: string): string {
  const cleaned = source
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 32)
  return cleaned.length >= 2 ? cleaned : `user${cleaned}`
}

async function uniqueUsername(base: string): Promise<string> {
  const taken = await db.selectFrom('users').select('username').where('username', 'like', `${base}%`).execute()
  const used = new Set(taken.map((t) => t.username))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!used.has(candidate)) return candidate
  }
}

export async function getUserById(id: string): Promise<PublicUser | undefined> {
  return publicUserQuery(id).executeTakeFirst()
}

/** The read of a user's public columns, for a statement that asks more beside it (auth.server.ts). */
export function publicUserQuery(id: string) {
  return db.selectFrom('users').select(PUBLIC_COLUMNS).where('id', '=', id)
}

/**
 * Creates the product user on first sign-in and refreshes name/avatar later.
 * The id is the identity provider's user id. ADMIN_EMAILS grants admin here.
 */
export async function syncUser(payload: UserSyncPayload): Promise<PublicUser> {
  const email = payload.email.trim().toLowerCase()
  const listedAdmin = adminEmails().has(email)
  const existing = await getUserById(payload.id)
  if (existing) {
    return db
      .updateTable('users')
      .set({
        email,
        // Issue 18: once the user edited their public profile (/profile), it is theirs, not the provider's.
        displayName: sql<string>`CASE WHEN profile_edited_at IS NULL THEN ${payload.displayName} ELSE display_name END`,
        avatarUrl: sql<
          string | null
        >`CASE WHEN profile_edited_at IS NULL THEN ${payload.avatarUrl || existing.avatarUrl} ELSE avatar_url END`,
        isAdmin: existing.isAdmin || listedAdmin,
        updatedAt: new Date(),
      })
      .where('id', '=', payload.id)
      .returning(PUBLIC_COLUMNS)
      .executeTakeFirstOrThrow()
  }
  const base = usernameBase(payload.preferredUsername || email.split('@')[0] || 'user')
  // Two first sign-ins racing for the same username: retry with the next free variant.
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = await uniqueUsername(base)
    const inserted = await db
      .insertInto('users')
      .values({ id: payload.id, email, username, displayName: payload.displayName, avatarUrl: payload.avatarUrl, isAdmin: listedAdmin })
      .onConflict((oc) => oc.doNothing())
      .returning(PUBLIC_COLUMNS)
      .executeTakeFirst()
    if (inserted) return inserted
    const now = await getUserById(payload.id)
    if (now) return now
  }
  throw new Error('Could not allocate a unique username')
}
