import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { AdminSummaryCards } from './admin-summary'

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')

describe('the admin summary (issue 26.12)', () => {
  it('names the fees earned on completed sales and those held in escrow, and adds them up on screen', () => {
    const page = text(
      renderToString(
        <AdminSummaryCards
          summary={{
            grossSalesCents: 31000,
            platformFeesEarnedCents: 1800,
            platformFeesInEscrowCents: 2850,
            payoutsDueCents: 3400,
            paidOutCents: 6800,
          }}
        />,
      ),
    )
    expect(page).toContain('Platform fees earned on completed sales $18.00')
    expect(page).toContain('+ $28.50 held in escrow (sales not yet completed) = $46.50, the 15% fee of gross sales')
    expect(page).not.toMatch(/Platform fees earned \$/)
  })
})
