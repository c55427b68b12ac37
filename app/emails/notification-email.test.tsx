import { describe, expect, it } from 'vitest'
import { NOTIFICATION_KINDS } from '~/lib/notifications'
import { notificationContent, type PayoutNotice, type SaleNotice } from './content'
import { renderNotificationEmail } from './notification-email'

const SALE: SaleNotice = {
  saleId: '9b2f7c1e-0000-4000-8000-000000000001',
  listingTitle: 'Invoice Kit',
  amountCents: 4900,
  feeCents: 735,
  sellerShareCents: 4165,
  buyerName: 'Bea Buyer',
  sellerName: 'Ada Okafor',
  paidAt: '2026-11-20T10:00:00.000Z',
  deliveredAt: '2026-11-21T10:00:00.000Z',
  windowEndsAt: '2026-11-24T10:00:00.000Z',
  disputeReason: 'It does not build',
  github: { repository: 'acme/invoice-kit', invitationUrl: 'https://github.com/acme/invoice-kit/invitations' },
}
const PAYOUT: PayoutNotice = {
  batchId: 'b1',
  amountCents: 4165,
  bankReference: 'BANK-RUN-1',
  paidAt: '2026-11-23T10:00:00.000Z',
  sales: [{ saleId: SALE.saleId, listingTitle: 'Invoice Kit', sellerShareCents: 4165 }],
}
const DATA: Record<string, Record<string, unknown>> = {
  payout_recorded: { ...PAYOUT },
  bank_details_approved: {},
  bank_details_rejected: { reason: 'The name does not match' },
  new_review: { listingTitle: 'Invoice Kit', listingSlug: 'invoice-kit', stars: 4, excerpt: 'Clean code' },
  webhook_endpoint_disabled: {
    endpointId: 'e1',
    url: 'https://hooks.example.com/forkmarket',
    failingSince: '2026-11-20T10:00:00.000Z',
    lastError: 'Timed out after 10 s',
  },
  purchase_taken_down: {
    listingTitle: 'Invoice Kit',
    category: 'Malware or leaked secrets',
    reason: 'A postinstall script sends secrets away',
  },
  listing_updated: {
    listingTitle: 'Invoice Kit',
    listingSlug: 'invoice-kit',
    version: 'v1.2.0',
    name: 'Faster exports',
    notes: 'PDF exports take half the time.',
    publishedAt: '2026-11-23T10:00:00.000Z',
    source: 'github',
  },
  listing_taken_down: {
    takedownId: 't1',
    listingTitle: 'Invoice Kit',
    listingSlug: 'invoice-kit',
    category: 'Copyright, or code the seller does not own',
    reason: 'The licence was removed',
  },
  listing_restored: {
    takedownId: 't1',
    listingTitle: 'Invoice Kit',
    listingSlug: 'invoice-kit',
    category: 'Copyright, or code the seller does not own',
    reason: 'The licence was removed',
  },
  admin_counter_notice: { listingTitle: 'Invoice Kit', sellerName: 'Ada Okafor', counterNotice: 'I wrote it.' },
  admin_delivery_stuck: { ...SALE, limitLabel: 'due in 24 hours' },
  admin_bank_details_digest: { date: '2026-11-23', count: 2, oldestRequestedAt: '2026-11-20T10:00:00.000Z' },
  admin_reconciliation_exceptions: {
    runId: 'run-1',
    count: 2,
    startedAt: '2026-11-23T04:15:00.000Z',
    rules: 'fee_rule: 1, seller_payable: 1',
  },
}

describe('every notification renders as an e-mail', () => {
  for (const kind of NOTIFICATION_KINDS) {
    it(kind, async () => {
      const content = notificationContent(kind, DATA[kind] ?? { ...SALE }, { timeZone: 'Europe/Paris' })!
      expect(content.subject.length).toBeGreaterThan(5)
      const { html, text } = await renderNotificationEmail(content, 'https://forkmarket.example')
      for (const part of [html, text, content.subject]) {
        expect(part).not.toMatch(/undefined|NaN|\[object Object\]/)
        expect(part).not.toMatch(/\b(4900|735|4165)\b/) // amounts only as formatted money
      }
      expect(text).toContain(content.summary)
      if (content.action) {
        expect(html).toContain(`https://forkmarket.example${content.action.path.replace(/#.*/, '')}`)
        expect(text).toContain(`${content.action.label}: https://forkmarket.example${content.action.path}`)
      }
      if (content.rows?.some((row) => row.value.includes('$'))) expect(text).toMatch(/\$\d+\.\d{2}/)
    })
  }

  it('the receipt shows the price, the 15 % fee and the escrow terms', async () => {
    const content = notificationContent('purchase_receipt', { ...SALE }, { timeZone: null })!
    const { text } = await renderNotificationEmail(content, 'https://forkmarket.example')
    expect(text).toContain('$49.00')
    expect(text).toContain('$7.35')
    expect(text).toMatch(/escrow/)
    expect(text).toContain('Paid: Nov 20, 2026, 10:00 AM UTC')
  })
})
