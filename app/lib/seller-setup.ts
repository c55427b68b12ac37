import type { BankDetailsStatus } from '../../db/schema.ts'
import { sellerCanTakePayments } from './seller-eligibility'

/**
 * Issue 26.13: the new seller's setup checklist on the seller dashboard — each step, whether it is done,
 * what its state is and where to do it. Only bank details decide whether listings can be bought
 * (`sellerCanTakePayments`); the others make a seller worth buying from.
 */
export interface SetupStep {
  id: 'public-profile' | 'github' | 'bank-details' | 'first-listing'
  title: string
  done: boolean
  /** The step's state in a few words ("Waiting for approval", "Not connected"). */
  state: string
  link: { to: string; label: string }
}

export interface SellerSetupInput {
  bio: string | null
  avatarUrl: string | null
  githubConnected: boolean
  bankStatus: BankDetailsStatus | null
  listingCount: number
}

const BANK_STATE: Record<BankDetailsStatus | 'none', string> = {
  none: 'Not added: your listings are not in the marketplace until you add them',
  pending: 'Waiting for approval: buyers can purchase, payouts start once approved',
  approved: 'Approved',
  rejected: 'Rejected: your listings are not in the marketplace until you resubmit them',
}

export function sellerSetupSteps(input: SellerSetupInput): SetupStep[] {
  const profileDone = Boolean(input.bio?.trim())
  return [
    {
      id: 'public-profile',
      title: 'Public profile',
      done: profileDone,
      state: profileDone ? 'Bio added' : 'Add a bio (and a photo) so buyers know who they are buying from',
      link: { to: '/profile#public-profile', label: profileDone ? 'Edit profile' : 'Complete profile' },
    },
    {
      id: 'github',
      title: 'GitHub',
      done: input.githubConnected,
      state: input.githubConnected
        ? 'Connected: your listings can be delivered through GitHub'
        : 'Not connected: connect it to deliver by GitHub invitation instead of sending fork links',
      link: { to: '/profile#github-card-title', label: input.githubConnected ? 'Manage GitHub' : 'Connect GitHub' },
    },
    {
      id: 'bank-details',
      title: 'Bank details',
      done: input.bankStatus === 'approved',
      state: BANK_STATE[input.bankStatus ?? 'none'],
      link: {
        to: '/profile#bank-details',
        label: input.bankStatus === 'rejected' ? 'Update Bank Details' : input.bankStatus ? 'View Bank Details' : 'Add Bank Details',
      },
    },
    {
      id: 'first-listing',
      title: 'First listing',
      done: input.listingCount > 0,
      state: input.listingCount > 0 ? 'Listed' : 'Not yet: list a repository for sale',
      link: { to: '/seller/create', label: 'Create Listing' },
    },
  ]
}

/** Why the seller's listings are not in the marketplace, or null when they can be bought. */
export function notForSaleReason(bankStatus: BankDetailsStatus | null): string | null {
  if (sellerCanTakePayments(bankStatus)) return null
  return bankStatus === 'rejected'
    ? 'Not in the marketplace: your bank details were rejected — resubmit them'
    : 'Not in the marketplace: add your bank details'
}
