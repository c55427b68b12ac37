/**
 * What the screens say and link to about delivery through GitHub (issue 16),
 * safe for both sides. The server decides; these only word and address it.
 */

/** GitHub's guide to moving a repository to an organization. */
export const TRANSFER_REPOSITORY_DOCS_URL =
  'https://docs.github.com/en/repositories/creating-and-managing-repositories/transferring-a-repository'

/**
 * Why a personal repository cannot be sold (as Polar rules): on a personal
 * repository GitHub gives every collaborator write access, which no buyer may have.
 */
export const ORGANIZATION_ONLY_REASON =
  'Only repositories owned by an organization can be sold: on a personal repository GitHub gives every collaborator write access, and a buyer may only read.'

/** The short reason beside a personal repository in the picker. */
export const PERSONAL_REPOSITORY_NOTE = 'personal repository, move it to an organization to sell it'

/** What the listing page says about how the code reaches the buyer. */
export const VERIFIED_SOURCE_TITLE = 'Source verified on GitHub'
export const UNVERIFIED_DELIVERY_TITLE = 'Delivered by the seller (not verified)'

/** An abbreviated commit SHA, as GitHub shows it. */
export function shortSha(sha: string): string {
  return sha.slice(0, 7)
}

/** `https://github.com/{owner}/{repo}`, or the emulator's equivalent (`webUrl` from the server's configuration). */
export function repositoryUrl(webUrl: string, fullName: string): string {
  return `${webUrl.replace(/\/+$/, '')}/${fullName}`
}

/** Where the buyer accepts a pending repository invitation. */
export function invitationUrl(webUrl: string, fullName: string): string {
  return `${repositoryUrl(webUrl, fullName)}/invitations`
}

/** Where the buyer forks the repository they were given access to. */
export function forkUrl(webUrl: string, fullName: string): string {
  return `${repositoryUrl(webUrl, fullName)}/fork`
}

/** How a listing is delivered: through GitHub while its repository is connected and reachable, else by the seller. */
export function listingDeliveryMethod(listing: { githubRepoId: number | null; githubAccessLostAt: Date | null }): 'github' | 'manual' {
  return listing.githubRepoId !== null && listing.githubAccessLostAt === null ? 'github' : 'manual'
}
