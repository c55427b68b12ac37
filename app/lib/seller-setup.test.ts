import { describe, expect, it } from 'vitest'
import { notForSaleReason, sellerSetupSteps } from './seller-setup'

const NEW_SELLER = { bio: null, avatarUrl: null, githubConnected: false, bankStatus: null, listingCount: 0 } as const

describe('the seller setup checklist (issue 26.13)', () => {
  it('a new seller has every step to do, each with its link', () => {
    const steps = sellerSetupSteps(NEW_SELLER)
    expect(steps.map((s) => [s.title, s.done, s.link.to])).toEqual([
      ['Public profile', false, '/profile#public-profile'],
      ['GitHub', false, '/profile#github-card-title'],
      ['Bank details', false, '/profile#bank-details'],
      ['First listing', false, '/seller/create'],
    ])
    expect(steps.find((s) => s.id === 'bank-details')!.state).toMatch(/not in the marketplace/)
  })

  it('each step is done by its own fact; pending bank details can sell but are not done', () => {
    const steps = sellerSetupSteps({
      bio: 'I build SaaS kits',
      avatarUrl: null,
      githubConnected: true,
      bankStatus: 'pending',
      listingCount: 2,
    })
    expect(steps.map((s) => s.done)).toEqual([true, true, false, true])
    expect(steps.find((s) => s.id === 'bank-details')!.state).toMatch(/^Waiting for approval/)
    expect(sellerSetupSteps({ ...NEW_SELLER, bankStatus: 'approved' }).find((s) => s.id === 'bank-details')!.done).toBe(true)
    expect(sellerSetupSteps({ ...NEW_SELLER, bio: '   ' })[0]!.done).toBe(false)
  })

  it('listings of a seller who cannot take payments say why they are not for sale', () => {
    expect(notForSaleReason(null)).toMatch(/add your bank details/)
    expect(notForSaleReason('rejected')).toMatch(/rejected/)
    expect(notForSaleReason('pending')).toBeNull()
    expect(notForSaleReason('approved')).toBeNull()
  })
})
