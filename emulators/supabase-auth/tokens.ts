import {
  calculateJwkThumbprint,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose'

const ALGORITHM = 'ES256'

export interface SigningKeyMaterial {
  kid: string
  privateJwk: JWK
  publicJwk: JWK
}

export interface VerifyOptions {
  issuer: string
  audience: string
  now: Date
}

export async function generateSigningKey(): Promise<SigningKeyMaterial> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true })
  const publicJwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(publicJwk)
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM },
    publicJwk: { ...publicJwk, kid, alg: ALGORITHM, use: 'sig', key_ops: ['verify'] },
  }
}

/** Signs and verifies the emulator's ES256 JWTs, always stamping the `kid` clients look up in the JWKS. */
export class TokenSigner {
  private constructor(
    private readonly material: SigningKeyMaterial,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
  ) {}

  static async fromMaterial(material: SigningKeyMaterial): Promise<TokenSigner> {
    const [privateKey, publicKey] = await Promise.all([importJWK(material.privateJwk, ALGORITHM), importJWK(material.publicJwk, ALGORITHM)])
    if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) {
      throw new Error('Supabase Auth emulator: signing key must be an EC key pair')
    }
    return new TokenSigner(material, privateKey, publicKey)
  }

  get kid(): string {
    return this.material.kid
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.material.publicJwk] }
  }

  sign(claims: JWTPayload): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: ALGORITHM, kid: this.kid, typ: 'JWT' }).sign(this.privateKey)
  }

  async verify(token: string, options: VerifyOptions): Promise<JWTPayload> {
    const { payload } = await jwtVerify(token, this.publicKey, {
      algorithms: [ALGORITHM],
      issuer: options.issuer,
      audience: options.audience,
      currentDate: options.now,
      requiredClaims: ['exp', 'sub'],
    })
    return payload
  }
}

/** Why a token was rejected, worded like GoTrue's golang-jwt messages. */
export function describeJwtFailure(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'token has invalid claims: token is expired'
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'token signature is invalid'
  if (error instanceof errors.JWTClaimValidationFailed) return `token has invalid claims: ${error.message}`
  if (error instanceof Error) return `token is malformed: ${error.message}`
  return 'token is malformed'
}

/** The `role` claim of a JWT-shaped string, without verifying it. */
export function unverifiedRole(token: string): string | undefined {
  const payload = token.split('.')[1]
  if (!payload) return undefined
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    if (typeof claims !== 'object' || claims === null || !('role' in claims)) return undefined
    return typeof claims.role === 'string' ? claims.role : undefined
  } catch {
    return undefined
  }
}
