/** GoTrue's JSON shapes for users, identities and access-token claims, built from stored records. */
import type { JWTPayload } from 'jose'
import type { IdentityData, Provider, SessionRecord, UserRecord } from './store.ts'

export const AUTHENTICATED = 'authenticated'

export interface AuthIdentity {
  identity_id: string
  id: string
  user_id: string
  identity_data: IdentityData
  provider: Provider
  email: string
  last_sign_in_at: string
  created_at: string
  updated_at: string
}

export interface AuthUser {
  id: string
  aud: typeof AUTHENTICATED
  role: typeof AUTHENTICATED
  email: string
  email_confirmed_at: string
  confirmed_at: string
  phone: ''
  app_metadata: { provider: Provider; providers: Provider[] }
  user_metadata: IdentityData
  identities: AuthIdentity[]
  created_at: string
  updated_at: string
  last_sign_in_at: string
  is_anonymous: false
}

const PROVIDER_ISSUERS: Record<Provider, string> = {
  github: 'https://api.github.com',
  google: 'https://accounts.google.com',
}

export interface ProviderProfile {
  provider: Provider
  providerId: string
  email: string
  fullName: string
  avatarUrl: string
  /** GitHub: the account's login (default: made from the e-mail). */
  login?: string
}

/**
 * What each provider reports about the account, in the shape GoTrue stores as
 * identity_data and merges into user_metadata. Only GitHub has a username;
 * Google has `picture`. Blank names are left out, as GoTrue omits empty claims.
 */
export function providerIdentityData(profile: ProviderProfile): IdentityData {
  const data: IdentityData = {
    avatar_url: profile.avatarUrl,
    email: profile.email.toLowerCase(),
    email_verified: true,
    iss: PROVIDER_ISSUERS[profile.provider],
    phone_verified: false,
    provider_id: profile.providerId,
    sub: profile.providerId,
  }
  if (profile.fullName) {
    data.full_name = profile.fullName
    data.name = profile.fullName
  }
  if (profile.provider === 'github') {
    const login = profile.login ?? githubLogin(profile.email)
    data.user_name = login
    data.preferred_username = login
  } else {
    data.picture = profile.avatarUrl
  }
  return data
}

/** GitHub logins are alphanumerics and single inner hyphens, at most 39 characters. */
export function githubLogin(email: string): string {
  const localPart = email.split('@')[0] ?? ''
  const login = localPart
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 39)
    .replace(/-+$/, '')
  return login || 'user'
}

export function toAuthUser(user: UserRecord): AuthUser {
  return {
    id: user.id,
    aud: AUTHENTICATED,
    role: AUTHENTICATED,
    email: user.email,
    email_confirmed_at: user.createdAt,
    confirmed_at: user.createdAt,
    phone: '',
    app_metadata: appMetadata(user),
    user_metadata: user.userMetadata,
    identities: user.identities.map((identity) => ({
      identity_id: identity.identityId,
      id: identity.providerId,
      user_id: user.id,
      identity_data: identity.identityData,
      provider: identity.provider,
      email: user.email,
      last_sign_in_at: identity.lastSignInAt,
      created_at: identity.createdAt,
      updated_at: identity.updatedAt,
    })),
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    last_sign_in_at: user.lastSignInAt,
    is_anonymous: false,
  }
}

/** GoTrue keeps the first provider as `provider` and lists every linked one. */
function appMetadata(user: UserRecord): AuthUser['app_metadata'] {
  const providers = user.identities.map((identity) => identity.provider)
  return { provider: providers[0] ?? 'github', providers }
}

export interface AccessTokenTimes {
  issuedAt: number
  expiresAt: number
}

export function accessTokenClaims(issuer: string, user: UserRecord, session: SessionRecord, times: AccessTokenTimes): JWTPayload {
  return {
    iss: issuer,
    sub: user.id,
    aud: AUTHENTICATED,
    exp: times.expiresAt,
    iat: times.issuedAt,
    email: user.email,
    phone: '',
    app_metadata: appMetadata(user),
    user_metadata: user.userMetadata,
    role: AUTHENTICATED,
    aal: 'aal1',
    amr: [{ method: 'oauth', timestamp: Math.floor(session.createdAtMs / 1000) }],
    session_id: session.id,
    is_anonymous: false,
  }
}
