/**
 * The emulator's buckets and objects: in memory (tests), or on disk under a
 * data directory (npm start), where each object is two files named by the
 * hash of its key — the body and a JSON sidecar with the key and metadata —
 * so any key is safe as a file name. The index lives in memory and is read
 * back from the sidecars at start.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

export interface ObjectMeta {
  key: string
  size: number
  /** Quoted MD5 of the body, like S3's ETag for a single-part upload. */
  etag: string
  contentType: string
  lastModified: number
  /** Headers stored with the object and returned with it (Cache-Control, Content-Disposition…). */
  headers: Record<string, string>
  /** x-amz-meta-* (names without the prefix). */
  metadata: Record<string, string>
  /** Checksums given at upload, by algorithm (CRC32 → base64), returned in checksum mode. */
  checksums: Record<string, string>
}

export interface StoredObject {
  meta: ObjectMeta
  body: Buffer
}

interface Bucket {
  createdAt: number
  objects: Map<string, ObjectMeta>
}

const fileName = (key: string) => createHash('sha256').update(key).digest('hex')

export class ObjectStore {
  private readonly buckets = new Map<string, Bucket>()
  /** Bodies, in memory mode only. */
  private readonly bodies = new Map<string, Buffer>()

  private constructor(private readonly dir: string | undefined) {}

  /** `dir` undefined: in memory. */
  static async open(dir?: string): Promise<ObjectStore> {
    const store = new ObjectStore(dir)
    if (dir) await store.load(dir)
    return store
  }

  private async load(dir: string) {
    await mkdir(dir, { recursive: true })
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const bucketDir = path.join(dir, entry.name)
      const marker = await readFile(path.join(bucketDir, '.bucket.json'), 'utf8').catch(() => null)
      const bucket: Bucket = {
        createdAt: marker ? (JSON.parse(marker) as { createdAt: number }).createdAt : Date.now(),
        objects: new Map(),
      }
      for (const file of await readdir(bucketDir)) {
        if (!file.endsWith('.json') || file === '.bucket.json') continue
        const meta = JSON.parse(await readFile(path.join(bucketDir, file), 'utf8')) as ObjectMeta
        // A body written without its sidecar (crash) is ignored; a sidecar without a body too.
        if (existsSync(path.join(bucketDir, `${fileName(meta.key)}.bin`))) bucket.objects.set(meta.key, meta)
      }
      this.buckets.set(entry.name, bucket)
    }
  }

  bucketNames(): Array<{ name: string; createdAt: number }> {
    return [...this.buckets].map(([name, b]) => ({ name, createdAt: b.createdAt })).sort((a, b) => a.name.localeCompare(b.name))
  }

  hasBucket(name: string): boolean {
    return this.buckets.has(name)
  }

  /** false when it already exists. */
  async createBucket(name: string, now: number): Promise<boolean> {
    if (this.buckets.has(name)) return false
    this.buckets.set(name, { createdAt: now, objects: new Map() })
    if (this.dir) {
      await mkdir(path.join(this.dir, name), { recursive: true })
      await writeFile(path.join(this.dir, name, '.bucket.json'), JSON.stringify({ createdAt: now }))
    }
    return true
  }

  /** 'not-empty' when it holds objects. */
  async deleteBucket(name: string): Promise<'deleted' | 'not-empty'> {
    const bucket = this.buckets.get(name)
    if (bucket && bucket.objects.size > 0) return 'not-empty'
    this.buckets.delete(name)
    if (this.dir) {
      await rm(path.join(this.dir, name, '.bucket.json'), { force: true })
      await rmdir(path.join(this.dir, name)).catch(() => undefined)
    }
    return 'deleted'
  }

  head(bucket: string, key: string): ObjectMeta | undefined {
    return this.buckets.get(bucket)?.objects.get(key)
  }

  async get(bucket: string, key: string): Promise<StoredObject | undefined> {
    const meta = this.head(bucket, key)
    if (!meta) return undefined
    const body = this.dir ? await readFile(path.join(this.dir, bucket, `${fileName(key)}.bin`)) : this.bodies.get(`${bucket}/${key}`)
    return body ? { meta, body } : undefined
  }

  async put(bucket: string, meta: ObjectMeta, body: Buffer): Promise<void> {
    const objects = this.buckets.get(bucket)?.objects
    if (!objects) throw new Error(`no bucket ${bucket}`)
    if (this.dir) {
      // Body first, then the sidecar, each written whole (temporary file + rename): a reader never sees half an object.
      const base = path.join(this.dir, bucket, fileName(meta.key))
      const temporary = `${base}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
      await writeFile(temporary, body)
      await rename(temporary, `${base}.bin`)
      await writeFile(temporary, JSON.stringify(meta))
      await rename(temporary, `${base}.json`)
    } else {
      this.bodies.set(`${bucket}/${meta.key}`, body)
    }
    objects.set(meta.key, meta)
  }

  async delete(bucket: string, key: string): Promise<void> {
    const objects = this.buckets.get(bucket)?.objects
    if (!objects?.delete(key)) return
    if (this.dir) {
      const base = path.join(this.dir, bucket, fileName(key))
      await rm(`${base}.json`, { force: true })
      await rm(`${base}.bin`, { force: true })
    } else {
      this.bodies.delete(`${bucket}/${key}`)
    }
  }

  /** Keys in UTF-8 binary order, as S3 lists them. */
  list(bucket: string): ObjectMeta[] {
    const objects = this.buckets.get(bucket)?.objects
    if (!objects) return []
    return [...objects.values()].sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)))
  }
}
