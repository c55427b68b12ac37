import { describe, expect, it } from 'vitest'
import { saleMessageContent, type SaleMessageNotice } from './sale-message-notice'

const notice = (excerpt: string): SaleMessageNotice => ({
  saleId: 's1',
  listingTitle: 'Starter Kit',
  authorName: '@ada',
  authorRole: 'seller',
  excerpt,
  path: '/sales/s1/messages',
})

describe('saleMessageContent', () => {
  it('one message: its author, the excerpt quoted as text, a link to the thread', () => {
    const content = saleMessageContent({ ...notice('See <b>https://x.dev</b>') })!
    expect(content.subject).toBe('New message about Starter Kit')
    expect(content.paragraphs[0]).toBe('@ada: “See <b>https://x.dev</b>”')
    expect(content.action).toEqual({ label: 'Open the conversation', path: '/sales/s1/messages' })
  })

  it('a batch the outbox merged: the count, the kept items, and how many earlier ones were dropped', () => {
    const items = Array.from({ length: 10 }, (_, i) => notice(`m${i + 3}`))
    const content = saleMessageContent({ count: 12, items, latest: items.at(-1) })!
    expect(content.subject).toBe('12 new messages about Starter Kit')
    expect(content.summary).toBe('@ada wrote 12 messages about Starter Kit.')
    expect(content.paragraphs).toContain('…and 2 earlier.')
    expect(content.paragraphs.filter((p) => p.startsWith('@ada:'))).toHaveLength(10)
  })

  it('anything else has no content', () => {
    expect(saleMessageContent({ unrelated: true })).toBeNull()
  })
})
