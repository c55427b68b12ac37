/**
 * Dates as every screen shows them ("Nov 3, 2026"; with the time, "Nov 3,
 * 2026, 4:05 PM UTC"). Always in UTC, so the server's HTML and the browser's
 * render agree (no hydration mismatch) whatever the visitor's time zone.
 */
const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })

export function formatDate(value: Date | string): string {
  return DATE.format(new Date(value))
}

export function formatDateTime(value: Date | string): string {
  return `${DATE_TIME.format(new Date(value))} UTC`
}

/** A count with its noun in the right number: "1 sale", "2 sales", "0 images", "1 star". */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`
}
