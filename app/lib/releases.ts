import { DISPUTE_WINDOW_HOURS, STATUS_LABELS, UPDATE_RECIPIENT_STATUSES } from '~/lib/escrow'

/**
 * A listing's versions (issue 30, docs/decisions/036): what the listing page, its Changelog and the
 * cards show, and the relative "Updated 3 days ago". The version-note form's rules are in
 * version-note.ts: the cards import this module, and the marketplace page should not carry Zod.
 */

/** Who is told of a new version, in words ("delivered or completed"), from UPDATE_RECIPIENT_STATUSES. */
export const UPDATE_RECIPIENTS_IN_WORDS = UPDATE_RECIPIENT_STATUSES.map((status) => STATUS_LABELS[status].toLowerCase()).join(' or ')

/** Notes kept per version (GitHub allows 125,000 characters; longer ones are cut with "…"). */
export const RELEASE_NOTES_MAX = 10_000
export const VERSION_NOTE_MAX = 5_000
export const VERSION_MAX = 50

export interface ListingVersion {
  id: string
  source: 'github' | 'manual'
  /** The tag of a GitHub release, or the version the seller typed. */
  version: string
  /** A GitHub release's title, when it has one besides its tag. */
  name: string | null
  notes: string
  htmlUrl: string | null
  publishedAt: Date
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
]

// One formatter for every call: building one is most of timeAgo's cost (3.6 % of the marketplace
// page's server CPU when each of its 24 cards built its own; docs/performance.md).
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })

/**
 * "3 days ago", "yesterday", "2 months ago", "just now" (under a minute, or a clock slightly ahead):
 * the largest whole unit, rounded down, as marketplaces show it.
 */
export function timeAgo(value: Date | string, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(value).getTime()) / 1000))
  for (const [unit, size] of UNITS) {
    // A month counts 30 days: days 360–364 are still "11 months ago", never "12 months ago".
    if (seconds >= size) return RELATIVE.format(-Math.min(Math.floor(seconds / size), unit === 'month' ? 11 : Infinity), unit)
  }
  return 'just now'
}

/** The cards' line: "Updated 3 days ago" — from the latest version, else from when the listing was listed. */
export function updatedAgo(lastUpdatedAt: Date | string, now: Date = new Date()): string {
  return `Updated ${timeAgo(lastUpdatedAt, now)}`
}

/**
 * What a buyer keeps after the sale and what a refund removes (issue 30), as the code does it: after
 * completion nothing revokes a GitHub buyer's collaborator access (github-revocation.server.ts revokes
 * before completion only), new versions are told while the listing is connected (listing-releases),
 * and a refund — only possible before completion, through a dispute — cancels the invitation or
 * removes the collaborator, which on GitHub also deletes their fork of the private repository.
 * Shown on the listing page and in the Terms.
 */
export const ACCESS_RULE = {
  github: {
    keep: `Once the sale completes (you confirm receipt, or ${DISPUTE_WINDOW_HOURS} hours pass without a dispute), Forkmarket never takes your access away: you stay a read collaborator on the seller’s repository, keep your fork, and are told of each new release while the listing is connected to the repository.`,
    refund:
      'A refund (only possible before completion, through a dispute) removes your access: the invitation is cancelled or you are removed as a collaborator, and GitHub then deletes your fork of the private repository.',
  },
  manual: {
    keep: 'You keep the fork link the seller delivered. New versions come as the seller’s version notes: you are told of each one, and the seller gives you the new code.',
    refund: 'A refund (only possible before completion, through a dispute) ends your licence: you must delete the copies you received.',
  },
} as const
