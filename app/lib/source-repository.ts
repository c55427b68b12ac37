import type { RepositoryChoice } from '~/server/domain/github-listing-sources.server'

/** A repository the seller's GitHub App installations grant (what the picker needs of it). */
export type SourceRepositoryOption = Pick<RepositoryChoice, 'id' | 'fullName' | 'ownerType' | 'connectable' | 'reason'>

/** What the listing form knows about GitHub when it is rendered. */
export interface SourceRepositoryData {
  /** GitHub delivery is configured on this site (without it every listing is delivered by its seller). */
  enabled: boolean
  repositories: SourceRepositoryOption[]
  /** At least one installation is connected. */
  connected: boolean
  /** GitHub could not be asked for the list just now. */
  unavailable: boolean
  /** The listing's connected repository (edit), kept selectable even when GitHub did not list it. */
  current: { id: number; fullName: string; accessLost: boolean } | null
}
