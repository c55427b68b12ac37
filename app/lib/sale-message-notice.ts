/**
 * What a new-message notification says (issue 18), for the notifications'
 * content table (app/emails/content.ts registers it under the kind
 * 'sale_message'). The outbox batches a thread's messages into one mail, whose
 * payload is `{ count, items, latest }` (notifications.server.ts); a single
 * message's payload is the notice itself. Message text is quoted as text: the
 * mail's renderer escapes it, and a link in it is not made clickable by us.
 */
export interface SaleMessageNotice {
  saleId: string
  listingTitle: string
  /** "@ada" */
  authorName: string
  authorRole: 'buyer' | 'seller'
  /** The message's first 200 characters. */
  excerpt: string
  /** The thread's path (/sales/{id}/messages). */
  path: string
}

interface BatchPayload {
  count?: number
  items?: SaleMessageNotice[]
  latest?: SaleMessageNotice
}

function noticesOf(data: Record<string, unknown>): { count: number; items: SaleMessageNotice[]; latest: SaleMessageNotice } | null {
  const batch = data as BatchPayload
  if (batch.latest && Array.isArray(batch.items))
    return { count: batch.count ?? batch.items.length, items: batch.items, latest: batch.latest }
  const single = data as unknown as SaleMessageNotice
  return typeof single.saleId === 'string' ? { count: 1, items: [single], latest: single } : null
}

/** The mail and in-app text of one or several new messages on a sale's thread. */
export function saleMessageContent(data: Record<string, unknown>) {
  const notices = noticesOf(data)
  if (!notices) return null
  const { count, items, latest } = notices
  const several = count > 1
  return {
    subject: several ? `${count} new messages about ${latest.listingTitle}` : `New message about ${latest.listingTitle}`,
    heading: several ? `${count} new messages` : 'New message',
    summary: several
      ? `${latest.authorName} wrote ${count} messages about ${latest.listingTitle}.`
      : `${latest.authorName} wrote about ${latest.listingTitle}.`,
    paragraphs: [
      ...items.map((item) => `${item.authorName}: “${item.excerpt}”`),
      ...(count > items.length ? [`…and ${count - items.length} earlier.`] : []),
      'Reply on Forkmarket: messages stay with the sale, and an admin can read them if the sale is disputed.',
    ],
    action: { label: 'Open the conversation', path: latest.path },
  }
}
