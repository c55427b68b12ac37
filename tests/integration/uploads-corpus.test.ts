import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../app/lib/listing-schema.ts'
import * as uploadImages from '../../app/routes/api/listings-upload-images.ts'
import { apiRequest, callRoute } from '../support/call-route.ts'
import { file, makeImage, signUp, storedFiles, useTemporaryUploads } from './listings-support.ts'

const CORPUS = fileURLToPath(new URL('../fixtures/uploads', import.meta.url))

// Every bad file of the corpus and the reason it must be refused with.
const EXPECTED: Record<string, RegExp> = {
  'text-renamed.png': /is not a JPG, PNG or WebP image/,
  'html-renamed.jpg': /is not a JPG, PNG or WebP image/,
  'php-shell.php.png': /is not a JPG, PNG or WebP image/,
  'shell.png.php': /embedded script or markup/,
  'image.svg': /is an SVG/,
  'svg-renamed.png': /is an SVG/,
  'empty.png': /is empty/,
  'truncated.jpg': /damaged or incomplete|could not be read/,
  'truncated.png': /damaged or incomplete|could not be read/,
  'truncated.webp': /damaged or incomplete|could not be read/,
  'wrong-magic.png': /is not a JPG, PNG or WebP image/,
  'gif-image.gif': /is not a JPG, PNG or WebP image/,
  'bitmap.bmp': /is not a JPG, PNG or WebP image/,
  'document.pdf': /is not a JPG, PNG or WebP image/,
  'archive.zip': /is not a JPG, PNG or WebP image/,
  'png-zip-polyglot.png': /extra data after the end of the image/,
  'jpeg-html-polyglot.jpg': /extra data after the end of the image/,
  'exif-script.jpg': /embedded script or markup/,
  'png-text-chunk-script.png': /embedded script or markup/,
  'pixel-bomb-header.png': /too many pixels/,
  '..%2F..%2Fetc%2Fpasswd.png': /is not a JPG, PNG or WebP image/,
  'ELF-binary.webp': /is not a JPG, PNG or WebP image/,
}

let uploads: string
let token: string

beforeEach(async () => {
  uploads = useTemporaryUploads() // a fresh, empty bucket
  token = (await signUp(`corpus-${crypto.randomUUID()}@example.com`)).token
})

async function upload(name: string, bytes: Uint8Array, type = 'image/png') {
  const body = new FormData()
  body.append('images', file(bytes, name, type))
  const response = await callRoute(uploadImages, apiRequest('/api/listings/upload-images', { method: 'POST', token, body }))
  return { status: response.status, body: (await response.json()) as { error?: string; images?: string[] } }
}

describe('the corpus of bad uploads', () => {
  const files = readdirSync(CORPUS).filter((name) => !name.endsWith('.ts'))

  it('holds at least 20 files, each with an expected reason', () => {
    expect(files.length).toBeGreaterThanOrEqual(20)
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  for (const name of Object.keys(EXPECTED)) {
    it(`refuses ${name} with a specific message and stores nothing`, async () => {
      const { status, body } = await upload(name, readFileSync(path.join(CORPUS, name)))
      expect(status).toBe(400)
      expect(body.error).toMatch(EXPECTED[name]!)
      expect(body.images).toBeUndefined()
      expect(storedFiles(uploads)).toEqual([])
    })
  }

  it('refuses a file of 5 MB + 1 byte', async () => {
    const bytes = new Uint8Array(MAX_IMAGE_BYTES + 1)
    bytes.set(await makeImage('png'))
    const { status, body } = await upload('big.png', bytes)
    expect(status).toBe(400)
    expect(body.error).toMatch(/larger than 5MB/)
    expect(storedFiles(uploads)).toEqual([])
  })

  it('one bad file in a batch is refused by name; the good ones are stored (issue 14.15)', async () => {
    const body = new FormData()
    body.append('images', file(await makeImage('png'), 'good.png'))
    body.append('images', file(readFileSync(path.join(CORPUS, 'png-zip-polyglot.png')), 'bad.png'))
    const response = await callRoute(uploadImages, apiRequest('/api/listings/upload-images', { method: 'POST', token, body }))
    expect(response.status).toBe(200)
    const json = await response.json()
    expect(json.images).toHaveLength(1)
    expect(json.rejected).toEqual([{ name: 'bad.png', error: expect.any(String) }])
    // Only the good image's two renditions are on disk; nothing of the polyglot.
    expect(storedFiles(uploads)).toHaveLength(2)
    expect(storedFiles(uploads).every((f) => /^[a-f0-9]{32}\/(card|full)\.webp$/.test(f))).toBe(true)
  })

  it('stores a good image under a random key whatever its name says', async () => {
    const { status, body } = await upload('../../../../etc/cron.d/evil.png.php', await makeImage('png'))
    expect(status).toBe(200)
    expect(body.images?.[0]).toMatch(/^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
    expect(storedFiles(uploads).every((f) => /^[a-f0-9]{32}\/(card|full)\.webp$/.test(f))).toBe(true)
  })
})
