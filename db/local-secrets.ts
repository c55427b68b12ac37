import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * For the embedded (local) default only: a secret generated once and kept
 * under DATA_DIR, so sessions and encrypted data survive restarts without the
 * developer configuring anything. Production reads every secret from env.
 */
export function localSecret(dataDir: string, name: string, bytes = 32): string {
  const file = path.join(dataDir, 'secrets', name)
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const value = randomBytes(bytes).toString('base64url')
  writeFileSync(file, value, { mode: 0o600 })
  return value
}
