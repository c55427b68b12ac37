/**
 * Listing images are re-encoded at upload into fixed 16:10 WebP renditions, so
 * every <img> can carry width/height (no layout shift) and the right size.
 * The stored URL (thumbnailUrl, screenshots[]) is the `full` rendition; other
 * sizes sit beside it: …/<key>/full.webp → …/<key>/card.webp.
 */
export const IMAGE_SIZES = {
  card: { width: 640, height: 400 },
  full: { width: 1600, height: 1000 },
} as const

export type ImageSize = keyof typeof IMAGE_SIZES

export function imageVariant(url: string, size: ImageSize): string {
  return url.replace(/\/full\.webp(\?.*)?$/, `/${size}.webp$1`)
}
