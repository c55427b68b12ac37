import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { ObjectStore } from './store.ts'

/**
 * Copies images stored as local files (`<dir>/<32 hex>/<rendition>.webp`, the
 * single-instance layout of STORAGE=local) into an emulator bucket, skipping
 * keys already there: a data directory from before storage moved to S3 keeps
 * its uploads. Returns how many files were copied.
 */
export async function importLocalUploads(dir: string, store: ObjectStore, bucket: string): Promise<number> {
  const folders = await readdir(dir, { withFileTypes: true }).catch(() => [])
  let copied = 0
  for (const folder of folders) {
    if (!folder.isDirectory() || !/^[a-f0-9]{32}$/.test(folder.name)) continue
    for (const file of await readdir(path.join(dir, folder.name))) {
      if (!/^(?:card|full)\.webp$/.test(file)) continue
      const key = `${folder.name}/${file}`
      if (store.head(bucket, key)) continue
      const full = path.join(dir, folder.name, file)
      const [body, info] = await Promise.all([readFile(full), stat(full)])
      await store.put(
        bucket,
        {
          key,
          size: body.length,
          etag: `"${createHash('md5').update(body).digest('hex')}"`,
          contentType: 'image/webp',
          lastModified: info.mtimeMs,
          headers: { 'cache-control': 'public, max-age=31536000, immutable' },
          metadata: {},
          checksums: {},
        },
        body,
      )
      copied++
    }
  }
  return copied
}
