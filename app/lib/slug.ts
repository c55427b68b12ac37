/**
 * URL slug of a listing title: ASCII lower case, words joined by '-', at most
 * 80 characters (the listings.slug CHECK allows only [a-z0-9] runs joined by '-').
 * May return '' for a title with no Latin letters or digits; callers fall back.
 */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '')
}
