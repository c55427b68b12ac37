import { randomBytes, randomUUID } from 'node:crypto'
import { readDataFile, writeDataFile } from '../support/data-file.ts'
import type { SigningKeyMaterial } from './tokens.ts'

export const PROVIDERS = ['github', 'google'] as const
export type Provider = (typeof PROVIDERS)[number]

export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value)
}

/** Metadata as the OAuth provider would report it (GoTrue's `identity_data`). */
export type IdentityData = Record<string, string | boolean>

export interface IdentityRecord {
  identityId: string
  provider: Provider
  providerId: string
  identityData: IdentityData
  createdAt: string
  updatedAt: string
  lastSignInAt: string
}

export interface UserRecord {
  id: string
  email: string
  userMetadata: IdentityData
  identities: IdentityRecord[]
  createdAt: string
  updatedAt: string
  lastSignInAt: string
}

export interface SessionRecord {
  id: string
  userId: string
  provider: Provider
  createdAtMs: number
}

export interface RefreshTokenRecord {
  token: string
  sessionId: string
  parent: string | null
  createdAtMs: number
  revokedAtMs: number | null
}

export interface PersistedState {
  version: 1
  signingKey: SigningKeyMaterial
  anonKey: string
  users: UserRecord[]
  sessions: SessionRecord[]
  refreshTokens: RefreshTokenRecord[]
}

export interface OAuthSignIn {
  email: string
  provider: Provider
  /** Builds the provider's view of the account; called with the (possibly new) user id. */
  identityData: (userId: string, providerId: string) => IdentityData
  /** The provider's account id when the caller knows it (the GitHub emulator's); default: kept, or random. */
  providerId?: string
  now: Date
}

/**
 * Users, sessions and refresh tokens, optionally mirrored to a JSON file after
 * every change. Mutations are synchronous so a request handler can check and
 * rotate a refresh token without another request interleaving.
 */
export class AuthStore {
  private constructor(
    private readonly state: PersistedState,
    private readonly dataFile: string | undefined,
    private readonly userIdForEmail: (email: string) => string,
  ) {}

  /** Loads `dataFile` if it exists; otherwise starts empty with freshly created keys. */
  static async open(
    dataFile: string | undefined,
    createKeys: () => Promise<Pick<PersistedState, 'signingKey' | 'anonKey'>>,
    userIdForEmail: (email: string) => string = () => randomUUID(),
  ): Promise<AuthStore> {
    const existing = dataFile ? readState(dataFile) : undefined
    const store = new AuthStore(existing ?? emptyState(await createKeys()), dataFile, userIdForEmail)
    if (!existing) store.persist()
    return store
  }

  get signingKey(): SigningKeyMaterial {
    return this.state.signingKey
  }

  get anonKey(): string {
    return this.state.anonKey
  }

  findUserById(id: string): UserRecord | undefined {
    return this.state.users.find((user) => user.id === id)
  }

  findUserByEmail(email: string): UserRecord | undefined {
    const wanted = email.toLowerCase()
    return this.state.users.find((user) => user.email === wanted)
  }

  /** GoTrue links a verified provider e-mail to the existing account with that e-mail. */
  recordOAuthSignIn(input: OAuthSignIn): UserRecord {
    const email = input.email.toLowerCase()
    const timestamp = input.now.toISOString()
    const user = this.findUserByEmail(email) ?? this.addUser(email, timestamp)
    const identity = user.identities.find((candidate) => candidate.provider === input.provider)
    const providerId = input.providerId ?? identity?.providerId ?? providerAccountId(input.provider)
    const identityData = input.identityData(user.id, providerId)
    if (identity) {
      identity.providerId = providerId
      identity.identityData = identityData
      identity.updatedAt = timestamp
      identity.lastSignInAt = timestamp
    } else {
      user.identities.push({
        identityId: randomUUID(),
        provider: input.provider,
        providerId,
        identityData,
        createdAt: timestamp,
        updatedAt: timestamp,
        lastSignInAt: timestamp,
      })
    }
    user.userMetadata = { ...user.userMetadata, ...identityData }
    user.updatedAt = timestamp
    user.lastSignInAt = timestamp
    this.persist()
    return user
  }

  createSession(userId: string, provider: Provider, nowMs: number): SessionRecord {
    const session: SessionRecord = {
      id: randomUUID(),
      userId,
      provider,
      createdAtMs: nowMs,
    }
    this.state.sessions.push(session)
    this.persist()
    return session
  }

  findSession(id: unknown): SessionRecord | undefined {
    return this.state.sessions.find((session) => session.id === id)
  }

  deleteSession(sessionId: string): void {
    this.removeSessions((session) => session.id === sessionId)
  }

  /** Signs the user out everywhere, or everywhere but `keep`. */
  deleteUserSessions(userId: string, keep?: string): void {
    this.removeSessions((session) => session.userId === userId && session.id !== keep)
  }

  issueRefreshToken(sessionId: string, parent: string | null, nowMs: number): RefreshTokenRecord {
    const record: RefreshTokenRecord = {
      token: randomBytes(18).toString('base64url'),
      sessionId,
      parent,
      createdAtMs: nowMs,
      revokedAtMs: null,
    }
    this.state.refreshTokens.push(record)
    this.persist()
    return record
  }

  findRefreshToken(token: string): RefreshTokenRecord | undefined {
    return this.state.refreshTokens.find((record) => record.token === token)
  }

  /** The newest unrevoked token of a session: the one a client should be holding. */
  activeRefreshToken(sessionId: string): RefreshTokenRecord | undefined {
    return this.state.refreshTokens.findLast((record) => record.sessionId === sessionId && record.revokedAtMs === null)
  }

  rotateRefreshToken(record: RefreshTokenRecord, nowMs: number): RefreshTokenRecord {
    record.revokedAtMs = nowMs
    return this.issueRefreshToken(record.sessionId, record.token, nowMs)
  }

  /** Reuse detection: every token of the session becomes unusable. */
  revokeTokenFamily(sessionId: string, nowMs: number): void {
    for (const record of this.state.refreshTokens) {
      if (record.sessionId === sessionId && record.revokedAtMs === null) record.revokedAtMs = nowMs
    }
    this.persist()
  }

  private removeSessions(doomed: (session: SessionRecord) => boolean): void {
    const removed = new Set(this.state.sessions.filter(doomed).map((session) => session.id))
    this.state.sessions = this.state.sessions.filter((session) => !removed.has(session.id))
    this.state.refreshTokens = this.state.refreshTokens.filter((token) => !removed.has(token.sessionId))
    this.persist()
  }

  private addUser(email: string, timestamp: string): UserRecord {
    const user: UserRecord = {
      id: this.userIdForEmail(email),
      email,
      userMetadata: {},
      identities: [],
      createdAt: timestamp,
      updatedAt: timestamp,
      lastSignInAt: timestamp,
    }
    this.state.users.push(user)
    return user
  }

  private persist(): void {
    if (this.dataFile) writeDataFile(this.dataFile, this.state)
  }
}

function emptyState(keys: Pick<PersistedState, 'signingKey' | 'anonKey'>): PersistedState {
  return { version: 1, ...keys, users: [], sessions: [], refreshTokens: [] }
}

function readState(dataFile: string): PersistedState | undefined {
  return readDataFile(dataFile, { what: "The Supabase Auth emulator's data file", empty: 'no users and new keys' }, isPersistedState)
}

function isPersistedState(value: unknown): value is PersistedState {
  if (typeof value !== 'object' || value === null) return false
  const state = value as Partial<PersistedState>
  return (
    state.version === 1 &&
    typeof state.anonKey === 'string' &&
    typeof state.signingKey?.kid === 'string' &&
    Array.isArray(state.users) &&
    Array.isArray(state.sessions) &&
    Array.isArray(state.refreshTokens)
  )
}

/** Provider-side account ids look like the real ones: numeric, GitHub short, Google long. */
function providerAccountId(provider: Provider): string {
  const digits = provider === 'github' ? 8 : 21
  const value = randomBytes(16).reduce((acc, byte) => acc * 256n + BigInt(byte), 0n)
  return (value % 10n ** BigInt(digits)).toString().padStart(digits, '1')
}
