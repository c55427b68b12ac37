import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { IMAGE_SIZES, type ImageSize } from '~/lib/images'
import { MAX_IMAGE_BYTES, MAX_IMAGES, TOO_MANY_IMAGES_MESSAGE } from '~/lib/listing-schema'
import { db } from '../infra/db.server.ts'
import { logEvent } from '../infra/log.server.ts'
import { getStorage } from '../infra/storage.server.ts'
import { AppError } from './errors.server.ts'

/**
 * Listing image uploads: a file is accepted by its CONTENT (magic bytes of
 * JPEG, PNG or WebP), never by its name or Content-Type, then fully decoded
 * and re-encoded by sharp into the fixed WebP renditions of lib/images.ts.
 * Re-encoding drops EXIF/GPS and anything smuggled after the image data.
 *
 * An image belongs to whoever uploaded it (issue 26.1): storing one records its owner
 * (`uploaded_images`), a listing takes only its seller's images (assertOwnImages), and an image is
 * deleted only once no listing and no avatar refers to it (deleteUnusedImages).
 */

/** Decompression-bomb guard: a 5 MB file may still claim 60 000 × 60 000 pixels. */
export const MAX_INPUT_PIXELS = 40_000_000

sharp.cache(false)

export class ImageRejectedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImageRejectedError'
  }
}

type Detected = 'jpeg' | 'png' | 'webp'

function startsWith(bytes: Uint8Array, signature: number[], offset = 0) {
  return signature.every((b, i) => bytes[offset + i] === b)
}

export function detectImageType(bytes: Uint8Array): Detected | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp'
  return null
}

function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 1024)).toLowerCase()
  return head.includes('<svg') || (head.trimStart().startsWith('<?xml') && head.includes('svg'))
}

/**
 * Whether anything but zero padding follows the image's own end marker: where
 * PNG+ZIP or JPEG+HTML polyglots hide their payload.
 */
function hasTrailingPayload(bytes: Uint8Array, type: Detected): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let end = view.length
  if (type === 'png') {
    const iend = view.lastIndexOf('IEND', undefined, 'latin1')
    if (iend >= 0) end = iend + 8
  } else if (type === 'jpeg') {
    const eoi = view.lastIndexOf(Buffer.from([0xff, 0xd9]))
    if (eoi >= 0) end = eoi + 2
  } else {
    end = Math.min(view.length, view.readUInt32LE(4) + 8)
  }
  return view.subarray(end).some((byte) => byte !== 0)
}

// Markers of HTML, SVG or script: in a real photo or screenshot they never occur,
// in an upload they mean a payload hidden in metadata (EXIF, comments, chunks).
const MARKUP = /<script|<\?php|<html|<svg|<iframe|<body|javascript:/i

export interface PreparedImage {
  key: string
  renditions: Record<ImageSize, Buffer>
}

function label(name: string) {
  const clean = name.replace(/[^\w .()-]/g, '').slice(0, 80)
  return clean ? `“${clean}”` : 'The file'
}

/** Validates and re-encodes one upload in memory; nothing is stored. */
export async function prepareImage(name: string, bytes: Uint8Array): Promise<PreparedImage> {
  const who = label(name)
  if (bytes.byteLength === 0) throw new ImageRejectedError(`${who} is empty`)
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRejectedError(`${who} is larger than 5MB`)
  const type = detectImageType(bytes)
  if (!type) {
    if (looksLikeSvg(bytes)) throw new ImageRejectedError(`${who} is an SVG; only JPG, PNG or WebP images are accepted`)
    throw new ImageRejectedError(`${who} is not a JPG, PNG or WebP image`)
  }
  if (hasTrailingPayload(bytes, type)) {
    throw new ImageRejectedError(`${who} has extra data after the end of the image (a hidden file?)`)
  }
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (MARKUP.test(input.toString('latin1'))) throw new ImageRejectedError(`${who} contains embedded script or markup`)
  // failOn 'warning': a truncated or corrupt file is refused, not half-decoded.
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' as const }
  let width: number | undefined
  let height: number | undefined
  try {
    const meta = await sharp(input, options).metadata()
    if (meta.format !== type) throw new Error(`format ${meta.format} does not match its signature`)
    width = meta.width
    height = meta.height
  } catch (error) {
    throw rejection(who, error)
  }
  if (!width || !height) throw new ImageRejectedError(`${who} could not be read as an image`)
  if (width * height > MAX_INPUT_PIXELS) {
    throw new ImageRejectedError(`${who} has too many pixels (${width}×${height}); the limit is 40 megapixels`)
  }
  try {
    const { full, card } = IMAGE_SIZES
    // .rotate() applies the EXIF orientation before the metadata is dropped (sharp keeps none by default).
    const fullBuffer = await sharp(input, options)
      .rotate()
      .resize(full.width, full.height, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer()
    const cardBuffer = await sharp(fullBuffer).resize(card.width, card.height, { fit: 'cover' }).webp({ quality: 80 }).toBuffer()
    return { key: randomBytes(16).toString('hex'), renditions: { full: fullBuffer, card: cardBuffer } }
  } catch (error) {
    throw rejection(who, error)
  }
}

function rejection(who: string, error: unknown): ImageRejectedError {
  const message = error instanceof Error ? error.message : String(error)
  if (/pixel limit/i.test(message)) return new ImageRejectedError(`${who} has too many pixels; the limit is 40 megapixels`)
  if (/premature end|truncated|corrupt|unexpected end|bad|invalid/i.test(message)) {
    return new ImageRejectedError(`${who} is damaged or incomplete`)
  }
  return new ImageRejectedError(`${who} could not be read as an image`)
}

/** A File from a multipart body that the user actually chose (browsers send an empty part for none). */
export function chosenFiles(values: FormDataEntryValue[]): File[] {
  return values.filter((v): v is File => typeof v !== 'string' && !(v.size === 0 && v.name === ''))
}

/** A file of an upload batch that was refused, and why (the reason names the file). */
export interface RejectedImage {
  name: string
  error: string
}

/**
 * Uploads a batch: each file is judged on its own, the valid ones are stored
 * and the refused ones come back named with their reason, so one bad file does
 * not cost the others. Only a batch over the image limit is refused whole
 * (ImageRejectedError), before any file is read.
 */
export async function uploadImages(
  ownerId: string,
  files: File[],
  alreadyAttached = 0,
): Promise<{ images: string[]; rejected: RejectedImage[] }> {
  if (alreadyAttached + files.length > MAX_IMAGES) throw new ImageRejectedError(TOO_MANY_IMAGES_MESSAGE)
  const prepared: PreparedImage[] = []
  const rejected: RejectedImage[] = []
  // One at a time: the machine is small and each decode can take a few hundred MB.
  for (const file of files) {
    try {
      if (file.size > MAX_IMAGE_BYTES) throw new ImageRejectedError(`${label(file.name)} is larger than 5MB`)
      prepared.push(await prepareImage(file.name, new Uint8Array(await file.arrayBuffer())))
    } catch (error) {
      if (!(error instanceof ImageRejectedError)) throw error
      rejected.push({ name: file.name.slice(0, 255), error: error.message })
    }
  }
  if (rejected.length) logEvent('info', 'listing_images_rejected', { count: rejected.length, stored: prepared.length })
  return { images: await storePreparedImages(ownerId, prepared), rejected }
}

export function imageUrlFor(key: string): string {
  return `/uploads/${key}/full.webp`
}

/** The image's key (its folder in storage) when the URL is one of our stored images, else null. */
function imageKeyOf(url: string): string | null {
  return /^\/uploads\/([a-f0-9]{32})\/full\.webp$/.exec(url)?.[1] ?? null
}

function renditionKeys(key: string): string[] {
  return (Object.keys(IMAGE_SIZES) as ImageSize[]).map((size) => `${key}/${size}.webp`)
}

/** Writes the renditions and records `ownerId` as their owner; returns the stored URLs (the `full` rendition). All or nothing. */
export async function storePreparedImages(ownerId: string, prepared: PreparedImage[]): Promise<string[]> {
  const storage = getStorage()
  const written: string[] = []
  try {
    for (const image of prepared) {
      for (const [size, body] of Object.entries(image.renditions)) {
        const key = `${image.key}/${size}.webp`
        await storage.put(key, body, 'image/webp')
        written.push(key)
      }
    }
    if (prepared.length) {
      await db
        .insertInto('uploadedImages')
        .values(prepared.map((image) => ({ key: image.key, ownerId })))
        .execute()
    }
  } catch (error) {
    await storage.delete(written).catch(() => undefined)
    throw error
  }
  return prepared.map((image) => imageUrlFor(image.key))
}

export const IMAGE_NOT_YOURS = 'Only images you uploaded can be added to your listing'

/**
 * A listing takes only images its seller uploaded, plus those it already shows (`kept`: an edit
 * keeps what the listing had, e.g. images stored before owners were recorded). Anything else — another
 * user's avatar or upload — is a 400 on the images field (issue 26.1).
 */
export async function assertOwnImages(ownerId: string, urls: (string | null | undefined)[], kept: (string | null)[] = []): Promise<void> {
  const keptUrls = new Set(kept)
  const keys = [...new Set(urls.filter((url): url is string => !!url && !keptUrls.has(url)).map(imageKeyOf))]
  if (keys.length === 0) return
  if (keys.includes(null)) throw imageNotYours()
  const owned = await db
    .selectFrom('uploadedImages')
    .select('key')
    .where('ownerId', '=', ownerId)
    .where('key', 'in', keys as string[])
    .execute()
  if (owned.length !== keys.length) throw imageNotYours()
}

function imageNotYours() {
  return new AppError(400, IMAGE_NOT_YOURS, { fieldErrors: { screenshots: [IMAGE_NOT_YOURS] }, extra: { field: 'screenshots' } })
}

/** The keys among these that a listing (live or archived) or an avatar still refers to. */
async function keysInUse(keys: string[]): Promise<Set<string>> {
  const urls = keys.map(imageUrlFor)
  const [listings, avatars] = await Promise.all([
    db
      .selectFrom('listings')
      .select(['thumbnailUrl', 'screenshots'])
      .where((eb) => eb.or([eb('thumbnailUrl', 'in', urls), eb('screenshots', '&&', eb.val(urls))]))
      .execute(),
    db.selectFrom('users').select('avatarUrl').where('avatarUrl', 'in', urls).execute(),
  ])
  const used = [...listings.flatMap((r) => [r.thumbnailUrl, ...r.screenshots]), ...avatars.map((r) => r.avatarUrl)]
  return new Set(used.map((url) => (url ? imageKeyOf(url) : null)).filter((key): key is string => key !== null))
}

/** Whether this rendition of an image is stored (the demo data checks before it renders). */
export async function isImageStored(key: string, size: ImageSize): Promise<boolean> {
  return getStorage().exists(`${key}/${size}.webp`)
}

/**
 * Stores renditions under a key its caller chose (the demo data: a hash of
 * what the image shows) unless they are stored already; returns the image's
 * URL. Storing the same image twice is harmless, so seeding can repeat or race.
 */
export async function storeImageIfAbsent(key: string, renditions: Partial<Record<ImageSize, Buffer>>): Promise<string> {
  const storage = getStorage()
  for (const [size, body] of Object.entries(renditions) as [ImageSize, Buffer][]) {
    if (await isImageStored(key, size)) continue
    try {
      await storage.put(`${key}/${size}.webp`, body, 'image/webp')
    } catch (error) {
      if (!(await isImageStored(key, size))) throw error
    }
  }
  return imageUrlFor(key)
}

/**
 * Removes the stored renditions (and the owner record) of these image URLs once nothing refers to
 * them: no listing, live or archived, and no avatar. Other URLs are ignored.
 */
export async function deleteUnusedImages(urls: (string | null | undefined)[]): Promise<void> {
  const keys = [...new Set(urls.map((url) => (url ? imageKeyOf(url) : null)).filter((key): key is string => key !== null))]
  if (keys.length === 0) return
  const inUse = await keysInUse(keys)
  const unused = keys.filter((key) => !inUse.has(key))
  if (unused.length === 0) return
  await getStorage().delete(unused.flatMap(renditionKeys))
  await db.deleteFrom('uploadedImages').where('key', 'in', unused).execute()
  logEvent('info', 'images_deleted', { count: unused.length })
}
