import sharp from 'sharp'
import { beforeEach, describe, expect, it } from 'vitest'
import { MAX_IMAGE_BYTES } from '../../app/lib/listing-schema.ts'
import * as uploadImages from '../../app/routes/api/listings-upload-images.ts'
import * as uploadsRoute from '../../app/routes/uploads.ts'
import { apiRequest, APP, callRoute } from '../support/call-route.ts'
import { file, makeImage, signUp, storedFiles, useTemporaryUploads } from './listings-support.ts'

let uploads: string
let token: string

beforeEach(async () => {
  uploads = useTemporaryUploads() // a fresh, empty bucket
  token = (await signUp(`uploader-${crypto.randomUUID()}@example.com`)).token
})

async function upload(files: File[], authToken: string | undefined = token) {
  const body = new FormData()
  for (const f of files) body.append('images', f)
  const response = await callRoute(uploadImages, apiRequest('/api/listings/upload-images', { method: 'POST', token: authToken, body }))
  return { status: response.status, body: await response.json() }
}

/** A valid PNG padded with trailing bytes to an exact size. */
async function pngOfSize(bytes: number) {
  const png = await makeImage('png')
  const padded = new Uint8Array(bytes)
  padded.set(png)
  return padded
}

function serve(key: string, method = 'GET') {
  return callRoute(uploadsRoute, new Request(`${APP}/uploads/${key}`, { method }), { '*': key })
}

describe('POST /api/listings/upload-images', () => {
  it('re-encodes JPEG, PNG and WebP into the card and full WebP renditions', async () => {
    const { status, body } = await upload([
      file(await makeImage('jpeg', { width: 1200, height: 900 }), 'a.jpg', 'image/jpeg'),
      file(await makeImage('png'), 'b.png'),
      file(await makeImage('webp'), 'c.webp', 'image/webp'),
    ])
    expect(status).toBe(200)
    expect(body.images).toHaveLength(3)
    for (const url of body.images) expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
    expect(storedFiles(uploads)).toHaveLength(6)

    const key = body.images[0].slice('/uploads/'.length, -'/full.webp'.length)
    for (const [name, width, height] of [
      ['full', 1600, 1000],
      ['card', 640, 400],
    ] as const) {
      const response = await serve(`${key}/${name}.webp`)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('image/webp')
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
      expect(response.headers.get('Cache-Control')).toContain('immutable')
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      expect(meta).toMatchObject({ format: 'webp', width, height })
    }
  })

  it('detects the type from the content, not the name or header (a PNG named .jpg is fine)', async () => {
    const { status } = await upload([file(await makeImage('png'), 'photo.jpg', 'application/octet-stream')])
    expect(status).toBe(200)
  })

  it('strips EXIF metadata (GPS, camera…) and applies the orientation', async () => {
    const withExif = await sharp(await makeImage('jpeg', { width: 400, height: 200 }))
      .withExif({ IFD0: { Copyright: 'secret-owner', Artist: 'Someone' } })
      .jpeg()
      .toBuffer()
    expect((await sharp(withExif).metadata()).exif).toBeDefined()
    const { body } = await upload([file(withExif, 'exif.jpg', 'image/jpeg')])
    const key = body.images[0].slice('/uploads/'.length, -'/full.webp'.length)
    const stored = Buffer.from(await (await serve(`${key}/full.webp`)).arrayBuffer())
    const meta = await sharp(stored).metadata()
    expect(meta.exif).toBeUndefined()
    expect(stored.includes(Buffer.from('secret-owner'))).toBe(false)
  })

  it.each([
    [
      'a text file renamed .png',
      async () => file('just some text, not an image', 'photo.png', 'image/png'),
      /is not a JPG, PNG or WebP image/,
    ],
    [
      'an SVG',
      async () => file('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'logo.svg', 'image/svg+xml'),
      /SVG/,
    ],
    [
      'an SVG renamed .png',
      async () => file('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', 'logo.png', 'image/png'),
      /SVG/,
    ],
    [
      'a truncated JPEG',
      async () => {
        const jpeg = await makeImage('jpeg', { width: 400, height: 300, noise: true })
        return file(jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), 'cut.jpg', 'image/jpeg')
      },
      /damaged or incomplete/,
    ],
    ['a 5 MB + 1 byte file', async () => file(await pngOfSize(MAX_IMAGE_BYTES + 1), 'big.png'), /larger than 5MB/],
    ['an empty file', async () => file(new Uint8Array(0), 'empty.png'), /is empty/],
    [
      'too many pixels (decompression bomb)',
      async () => file(await makeImage('png', { width: 8000, height: 6000 }), 'huge.png'),
      /too many pixels/,
    ],
    [
      'a GIF',
      async () =>
        file(
          await sharp({ create: { width: 10, height: 10, channels: 3, background: 'red' } })
            .gif()
            .toBuffer(),
          'a.gif',
          'image/gif',
        ),
      /not a JPG, PNG or WebP/,
    ],
  ])('refuses %s with a reason; alone, nothing is stored; in a batch, the valid images are (issue 14.15)', async (_name, make, reason) => {
    const bad = await make()
    const alone = await upload([bad])
    expect(alone.status).toBe(400)
    expect(alone.body.error).toMatch(reason)
    expect(alone.body.rejected).toEqual([{ name: bad.name, error: alone.body.error }])
    expect(storedFiles(uploads)).toEqual([])

    const good = file(await makeImage('png'), 'good.png')
    const { status, body } = await upload([good, bad, file(await makeImage('jpeg'), 'also-good.jpg', 'image/jpeg')])
    expect(status).toBe(200)
    expect(body.images).toHaveLength(2)
    for (const url of body.images) expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\/full\.webp$/)
    expect(body.rejected).toHaveLength(1)
    expect(body.rejected[0].name).toBe(bad.name)
    expect(body.rejected[0].error).toMatch(reason)
    expect(storedFiles(uploads)).toHaveLength(4)
  })

  it('names every refused file when none of a batch can be stored', async () => {
    const { status, body } = await upload([file('not an image', 'notes.png'), file(new Uint8Array(0), 'empty.jpg', 'image/jpeg')])
    expect(status).toBe(400)
    expect(body.rejected.map((r: { name: string }) => r.name)).toEqual(['notes.png', 'empty.jpg'])
    expect(body.error).toBe('“notes.png” is not a JPG, PNG or WebP image. “empty.jpg” is empty')
    expect(storedFiles(uploads)).toEqual([])
  })

  it('answers a fully valid batch with an empty rejected list (the response stays { images })', async () => {
    const { status, body } = await upload([file(await makeImage('png'), 'a.png')])
    expect(status).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['images', 'rejected'])
    expect(body.rejected).toEqual([])
  })

  it('accepts a file of exactly 5 MB', async () => {
    const { status, body } = await upload([file(await pngOfSize(MAX_IMAGE_BYTES), 'exact.png')])
    expect(status, JSON.stringify(body)).toBe(200)
  })

  it('refuses an 11th image', async () => {
    const png = await makeImage('png', { width: 16, height: 10 })
    const { status, body } = await upload(Array.from({ length: 11 }, (_, i) => file(png, `${i}.png`)))
    expect(status).toBe(400)
    expect(body.error).toBe('You can upload a maximum of 10 images')
    expect(storedFiles(uploads)).toEqual([])
  })

  it('refuses a body over the cap before reading it, and non-multipart or empty posts', async () => {
    const big = apiRequest('/api/listings/upload-images', {
      method: 'POST',
      token,
      body: 'x',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(60 * 1024 * 1024) },
    })
    expect((await callRoute(uploadImages, big)).status).toBe(413)
    const json = await callRoute(uploadImages, apiRequest('/api/listings/upload-images', { method: 'POST', token, json: {} }))
    expect(json.status).toBe(400)
    expect((await upload([])).body).toEqual({ error: 'No images were uploaded' })
  })

  it('refuses a chunked body that grows past the cap while streaming', async () => {
    const chunk = new Uint8Array(1024 * 1024)
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 60) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const request = new Request(`${APP}/api/listings/upload-images`, {
      method: 'POST',
      headers: { Origin: APP, Authorization: `Bearer ${token}`, 'Content-Type': 'multipart/form-data; boundary=zzz' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    const response = await callRoute(uploadImages, request)
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(60)
  })

  it('anonymous → 401', async () => {
    const { status } = await upload([file(await makeImage('png'), 'a.png')], '')
    expect(status).toBe(401)
  })
})

describe('GET /uploads/*', () => {
  it('serves an image from the bucket with its ETag; a revalidation with it is a 304 without the bytes', async () => {
    const { body } = await upload([file(await makeImage('png'), 'a.png')])
    const key = `${body.images[0].slice('/uploads/'.length, -'/full.webp'.length)}/card.webp`
    const first = await serve(key)
    const etag = first.headers.get('ETag')
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/)
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(first.headers.get('Last-Modified')).toBeTruthy()
    expect(Number(first.headers.get('Content-Length'))).toBe((await first.arrayBuffer()).byteLength)
    const again = await callRoute(uploadsRoute, new Request(`${APP}/uploads/${key}`, { headers: { 'If-None-Match': etag! } }), { '*': key })
    expect(again.status).toBe(304)
    expect(again.headers.get('ETag')).toBe(etag)
    expect(again.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(await again.text()).toBe('')
    const stale = await callRoute(uploadsRoute, new Request(`${APP}/uploads/${key}`, { headers: { 'If-None-Match': '"0000"' } }), {
      '*': key,
    })
    expect(stale.status).toBe(200)
    const head = await serve(key, 'HEAD')
    expect([head.status, head.headers.get('ETag'), await head.text()]).toEqual([200, etag, ''])
  })

  it('404 for anything but a stored image key (no path traversal)', async () => {
    for (const key of [
      '../../etc/passwd',
      '..%2f..%2fetc%2fpasswd',
      'abc/full.webp',
      `${'a'.repeat(32)}/full.webp`,
      `${'a'.repeat(32)}/secret.txt`,
      '',
    ]) {
      const response = await serve(key)
      expect(response.status, key).toBe(404)
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    }
  })
})
