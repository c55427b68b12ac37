import { createReadStream } from 'node:fs'
import { mkdir, rm, rmdir, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { config } from './env.server.ts'

/**
 * Where listing images live: files under DATA_DIR/uploads locally, a Supabase
 * Storage bucket in production (SUPABASE_STORAGE_BUCKET + SUPABASE_URL +
 * SUPABASE_SERVICE_ROLE_KEY). Either way the app serves them at /uploads/<key>
 * (routes/uploads.ts), so image URLs don't change with the backend and the
 * page's CSP (img-src 'self') holds.
 *
 * Keys are `<32 hex>/<rendition>.webp`, made by images.server.ts; anything
 * else is refused here, so no key can climb out of the uploads folder.
 */
export interface StoredObject {
  body: ReadableStream<Uint8Array>
  contentType: string
  size?: number
}

export interface ImageStorage {
  readonly kind: 'local' | 'supabase'
  put(key: string, body: Buffer, contentType: string): Promise<void>
  get(key: string): Promise<StoredObject | null>
  delete(keys: string[]): Promise<void>
}

export const STORAGE_KEY = /^[a-f0-9]{32}\/(?:card|full)\.webp$/

export function isStorageKey(key: string): boolean {
  return STORAGE_KEY.test(key)
}

function assertKey(key: string) {
  if (!isStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`)
}

const CONTENT_TYPES: Record<string, string> = { '.webp': 'image/webp' }

export function localDiskStorage(root: string): ImageStorage {
  const fileFor = (key: string) => {
    assertKey(key)
    return path.join(root, ...key.split('/'))
  }
  return {
    kind: 'local',
    async put(key, body) {
      const file = fileFor(key)
      await mkdir(path.dirname(file), { recursive: true })
      // 'wx': keys are random; never overwrite an existing image.
      await writeFile(file, body, { flag: 'wx' })
    },
    async get(key) {
      const file = fileFor(key)
      try {
        const info = await stat(file)
        if (!info.isFile()) return null
        const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>
        return { body, size: info.size, contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async delete(keys) {
      const dirs = new Set<string>()
      for (const key of keys) {
        const file = fileFor(key)
        await rm(file, { force: true })
        dirs.add(path.dirname(file))
      }
      // Remove the per-image folder once both renditions are gone.
      for (const dir of dirs) await rmdir(dir).catch(() => undefined)
    },
  }
}

export function supabaseStorage(options: { url: string; serviceRoleKey: string; bucket: string }): ImageStorage {
  const base = `${options.url.replace(/\/$/, '')}/storage/v1/object`
  const auth = { Authorization: `Bearer ${options.serviceRoleKey}`, apikey: options.serviceRoleKey }
  const objectUrl = (key: string) => {
    assertKey(key)
    return `${base}/${encodeURIComponent(options.bucket)}/${key}`
  }
  const fail = async (what: string, response: Response): Promise<never> => {
    const text = await response.text().catch(() => '')
    throw new Error(`Supabase Storage ${what} failed: ${response.status} ${text.slice(0, 200)}`)
  }
  return {
    kind: 'supabase',
    async put(key, body, contentType) {
      const response = await fetch(objectUrl(key), {
        method: 'POST',
        headers: { ...auth, 'Content-Type': contentType, 'Cache-Control': 'max-age=31536000', 'x-upsert': 'false' },
        body: new Uint8Array(body),
      })
      if (!response.ok) await fail('upload', response)
    },
    async get(key) {
      const response = await fetch(objectUrl(key), { headers: auth })
      if (response.status === 404 || response.status === 400) return null
      if (!response.ok || !response.body) return fail('download', response)
      const length = Number(response.headers.get('Content-Length'))
      return {
        body: response.body,
        contentType: CONTENT_TYPES[path.extname(key)] ?? 'application/octet-stream',
        size: Number.isFinite(length) && length > 0 ? length : undefined,
      }
    },
    async delete(keys) {
      if (keys.length === 0) return
      keys.forEach(assertKey)
      const response = await fetch(`${base}/${encodeURIComponent(options.bucket)}`, {
        method: 'DELETE',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ prefixes: keys }),
      })
      if (!response.ok) await fail('delete', response)
    },
  }
}

let configured: ImageStorage | undefined

/** The storage chosen by the environment (read once per process). */
export function getStorage(): ImageStorage {
  if (configured) return configured
  const { SUPABASE_STORAGE_BUCKET: bucket, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey, DATA_DIR } = config()
  configured =
    bucket && serviceRoleKey
      ? supabaseStorage({ url: config().SUPABASE_URL, serviceRoleKey, bucket })
      : localDiskStorage(path.join(DATA_DIR, 'uploads'))
  return configured
}

/** Tests point storage elsewhere (or reset it after changing the environment). */
export function setStorageForTesting(storage: ImageStorage | undefined) {
  configured = storage
}
