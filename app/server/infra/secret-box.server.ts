import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { config } from './env.server.ts'

// AES-256-GCM for data at rest (bank account numbers). The key comes from
// BANK_DETAILS_KEY (any string; hashed to 32 bytes) so rotating it is a config change.
function key(): Buffer {
  return createHash('sha256').update(config().BANK_DETAILS_KEY).digest()
}

export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key(), iv)
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join('.')
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.')
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('Unrecognised ciphertext format.')
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64'))
  decipher.setAuthTag(Buffer.from(tag, 'base64'))
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8')
}
