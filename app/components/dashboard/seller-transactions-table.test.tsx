import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SellerTransactionsTable, type SellerTransactionRow } from './seller-transactions-table'

const sale = (over: Partial<SellerTransactionRow>): SellerTransactionRow => ({
  id: 't1',
  createdAt: new Date('2026-11-20T10:00:00Z'),
  amountCents: 4900,
  sellerShareCents: 4165,
  status: 'delivering',
  deliveredAt: null,
  disputeReason: null,
  paidAt: null,
  paymentReference: null,
  listing: { title: 'Kit', slug: 'kit' },
  buyer: { username: 'bea' },
  ...over,
})

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ')

describe("the seller's sales delivered through GitHub (issue 16)", () => {
  it('a sent invitation waits for the buyer; a queued one says why (GitHub’s daily limit)', () => {
    const html = renderToString(
      <SellerTransactionsTable
        transactions={[sale({}), sale({ id: 't2', buyer: { username: 'cal' } })]}
        waitingInvitations={{ t2: "GitHub's limit of 50 invitations a day on this repository was reached: the invitation is queued." }}
      />,
    )
    expect(text(html)).toContain(
      'waiting for @bea to accept the invitation to your repository. The 72-hour window starts once they have access.',
    )
    expect(text(html)).toContain("invitation queued: GitHub's limit of 50 invitations a day on this repository was reached")
    expect(text(html)).not.toContain('waiting for @cal')
  })

  it('a dispute without a delivery is a delivery that did not go through, not a buyer’s report', () => {
    const html = renderToString(
      <SellerTransactionsTable
        transactions={[sale({ status: 'disputed', disputeReason: 'The buyer did not accept the GitHub invitation within 14 days' })]}
      />,
    )
    expect(text(html)).toContain('The delivery did not go through : “The buyer did not accept the GitHub invitation within 14 days”')
  })
})
