// Without Zod: the listing page links to the purchase (issue 28's first-visit JS); the schemas are in purchase-schema.ts.

/** The id of a purchase's row in My Purchases, and the link to it (the listing page's "You own this"). */
export function purchaseRowId(transactionId: string): string {
  return `purchase-${transactionId}`
}

export function purchaseHref(transactionId: string): string {
  return `/purchases#${purchaseRowId(transactionId)}`
}
