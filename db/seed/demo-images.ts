import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { IMAGE_SIZES, type ImageSize } from '../../app/lib/images.ts'
import { imageUrlFor, isImageStored, storeImageIfAbsent } from '../../app/server/domain/images.server.ts'
import { DEMO_LISTINGS, type DemoListing } from './demo-data.ts'
import { listingMockups } from './demo-mockups.ts'

/**
 * The demo listings' images: the SVG mockups of db/seed/demo-mockups.ts rendered
 * locally by sharp into the same WebP renditions an upload gets, and stored
 * through the same storage module (served, cached and deleted like any
 * upload). Nothing is downloaded.
 *
 * An image's key is a hash of its SVG, so the same demo data always has the
 * same URLs (known before anything is rendered), storing is idempotent, and a
 * rendering can be reused: rendered files are kept in node_modules/.cache
 * (like other build caches), so every start after the first, and every e2e
 * run (which starts from an empty data directory), copies instead of renders.
 *
 * Rendering all 138 screens costs ~18 s of CPU (2-core machine), too much to
 * wait for on a first start. So it happens in two steps: the marketplace
 * cards' images (each listing's first screen at card size, ~20 ms each) before
 * the demo data is loaded, everything else in the background afterwards.
 */

/** Bump when the rendering settings below change, so cached renderings are not reused. */
const RENDER_VERSION = 1
export const DEMO_IMAGE_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/forkmarket-demo-images/', import.meta.url))
/** Two at a time: one per core of a small machine. */
const CONCURRENCY = 2

export interface DemoListingImages {
  thumbnailUrl: string
  screenshots: string[]
}

interface Screen {
  key: string
  svg: string
  /** The listing's first screen: its thumbnail, the image of its marketplace card. */
  thumbnail: boolean
}

export interface DemoImagePlan {
  images: DemoListingImages[]
  screens: Screen[]
}

export interface DemoImageOptions {
  /** Where renderings are kept between runs; null renders every time. */
  cacheDir?: string | null
}

export function demoImageKey(svg: string): string {
  return createHash('sha256').update(`forkmarket-demo:${RENDER_VERSION}:${svg}`).digest('hex').slice(0, 32)
}

/** Every demo image and its URL, without rendering anything (the URLs are hashes of the SVGs). */
export function planDemoImages(listings: readonly DemoListing[] = DEMO_LISTINGS): DemoImagePlan {
  const screens: Screen[] = []
  const images = listings.map((listing, index) => {
    const urls = listingMockups(listing, index).map((svg, screen) => {
      const key = demoImageKey(svg)
      screens.push({ key, svg, thumbnail: screen === 0 })
      return imageUrlFor(key)
    })
    return { thumbnailUrl: urls[0]!, screenshots: urls }
  })
  return { images, screens }
}

/** One SVG → the `full` and `card` WebP renditions of lib/images.ts (rasterised once). */
export async function renderDemoImage(svg: string): Promise<Record<ImageSize, Buffer>> {
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } }
  const { full, card } = IMAGE_SIZES
  const [fullBuffer, cardBuffer] = await Promise.all([
    sharp(data, raw).resize(full.width, full.height, { fit: 'cover' }).webp({ quality: 82, effort: 2 }).toBuffer(),
    sharp(data, raw).resize(card.width, card.height, { fit: 'cover' }).webp({ quality: 80, effort: 2 }).toBuffer(),
  ])
  return { full: fullBuffer, card: cardBuffer }
}

/** Only the card rendition, drawn at card size (a sixth of the pixels of the full one). */
export async function renderDemoCard(svg: string): Promise<Buffer> {
  const { card, full } = IMAGE_SIZES
  return sharp(Buffer.from(svg), { density: (72 * card.width) / full.width })
    .removeAlpha()
    .resize(card.width, card.height, { fit: 'cover' })
    .webp({ quality: 80, effort: 2 })
    .toBuffer()
}

async function readCached(cacheDir: string | null | undefined, key: string, size: ImageSize): Promise<Buffer | null> {
  if (!cacheDir) return null
  return readFile(path.join(cacheDir, key, `${size}.webp`)).catch(() => null)
}

async function writeCached(cacheDir: string | null | undefined, key: string, renditions: Partial<Record<ImageSize, Buffer>>) {
  if (!cacheDir) return
  try {
    const dir = path.join(cacheDir, key)
    await mkdir(dir, { recursive: true })
    for (const [size, body] of Object.entries(renditions)) {
      // Whole files only (write, then rename): parallel starts may read the cache at the same time.
      const temporary = path.join(dir, `${size}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
      await writeFile(temporary, body)
      await rename(temporary, path.join(dir, `${size}.webp`))
    }
  } catch {
    // The cache is an optimisation: a read-only node_modules just means rendering next time too.
  }
}

async function eachInParallel<T>(items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker))
}

/** Step 1: the card rendition of every listing's thumbnail, so the marketplace shows them at once. */
export async function storeDemoThumbnails(plan: DemoImagePlan, { cacheDir = DEMO_IMAGE_CACHE_DIR }: DemoImageOptions = {}) {
  let rendered = 0
  await eachInParallel(
    plan.screens.filter((screen) => screen.thumbnail),
    async ({ key, svg }) => {
      if (await isImageStored(key, 'card')) return
      let card = await readCached(cacheDir, key, 'card')
      if (!card) {
        card = await renderDemoCard(svg)
        rendered++
        await writeCached(cacheDir, key, { card })
      }
      await storeImageIfAbsent(key, { card })
    },
  )
  return { rendered }
}

/** Step 2: every rendition of every screen that is not stored yet (also repairs a partial earlier run). */
export async function storeDemoScreens(plan: DemoImagePlan, { cacheDir = DEMO_IMAGE_CACHE_DIR }: DemoImageOptions = {}) {
  let rendered = 0
  await eachInParallel(plan.screens, async ({ key, svg }) => {
    if ((await isImageStored(key, 'full')) && (await isImageStored(key, 'card'))) return
    let full = await readCached(cacheDir, key, 'full')
    let card = await readCached(cacheDir, key, 'card')
    if (!full || !card) {
      const renditions = await renderDemoImage(svg)
      rendered++
      // A card drawn at card size (step 1) stays: both are the same picture.
      full = renditions.full
      card ??= renditions.card
      await writeCached(cacheDir, key, { full, card })
    }
    await storeImageIfAbsent(key, { full, card })
  })
  return { rendered }
}
