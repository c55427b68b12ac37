import { Code2 } from 'lucide-react'
import { IMAGE_SIZES, imageVariant } from '~/lib/images'

/** Spec: the thumbnail, then up to 4 screenshots. */
export const MAX_SCREENSHOTS_SHOWN = 4

/** The screenshots shown under the thumbnail: the other images, at most four. */
export function screenshotsToShow(screenshots: readonly string[], thumbnailUrl: string | null) {
  return screenshots.filter((url) => url !== thumbnailUrl).slice(0, MAX_SCREENSHOTS_SHOWN)
}

export function ListingMedia({
  title,
  thumbnailUrl,
  screenshots,
}: {
  title: string
  thumbnailUrl: string | null
  screenshots: readonly string[]
}) {
  const others = screenshotsToShow(screenshots, thumbnailUrl)
  return (
    <div className="grid gap-3">
      {thumbnailUrl ? (
        <img
          src={thumbnailUrl}
          alt={`${title} — main image`}
          width={IMAGE_SIZES.full.width}
          height={IMAGE_SIZES.full.height}
          fetchPriority="high"
          className="aspect-[16/10] h-auto w-full rounded-xl border bg-muted object-cover"
        />
      ) : (
        <div className="flex aspect-[16/10] w-full items-center justify-center rounded-xl border bg-gradient-to-br from-primary/15 via-muted to-accent text-muted-foreground">
          <Code2 aria-hidden="true" className="size-16" />
          <span className="sr-only">No image</span>
        </div>
      )}
      {others.length > 0 ? (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Screenshots">
          {others.map((url, index) => (
            <li key={url}>
              <a href={url} target="_blank" rel="noopener" className="block overflow-hidden rounded-lg border">
                <img
                  src={imageVariant(url, 'card')}
                  alt={`${title} — screenshot ${index + 1}`}
                  width={IMAGE_SIZES.card.width}
                  height={IMAGE_SIZES.card.height}
                  loading="lazy"
                  className="aspect-[16/10] h-auto w-full object-cover transition-transform hover:scale-105"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
