import { cn } from '~/components/ui/cn'
import { DARK_TECH_ICON_SLUGS, GENERIC_TECH_ICON_URL, techIconSlug, techIconUrl } from '~/lib/options'

/**
 * The icon of a language, framework or service from /tech-icons (brand icons
 * from Simple Icons; a generic one for anything else or if loading fails).
 * Decorative: the name is always written beside it.
 */
export function TechIcon({ name, size = 16, className }: { name: string; size?: number; className?: string }) {
  const slug = techIconSlug(name)
  return (
    <img
      src={techIconUrl(name)}
      alt=""
      aria-hidden="true"
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      data-slug={slug}
      onError={(event) => {
        const img = event.currentTarget
        if (!img.src.endsWith(GENERIC_TECH_ICON_URL)) img.src = GENERIC_TECH_ICON_URL
      }}
      // Black brand marks would vanish on the dark background.
      className={cn('shrink-0', DARK_TECH_ICON_SLUGS.has(slug) && 'dark:invert', className)}
    />
  )
}
