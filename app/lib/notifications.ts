/**
 * What Forkmarket tells people (issue 17), shared by the server and the screens.
 *
 * Every kind is sent by e-mail and listed in the app. Only the optional ones —
 * reminders, updates to things bought and digests — can be turned off on /profile (the mail; the
 * in-app row stays); receipts, delivery,
 * dispute and money mails cannot (a buyer must hear that their 72-hour window
 * started, a seller that they were paid).
 */
export const NOTIFICATION_KINDS = [
  // Buyer
  'purchase_receipt',
  'purchase_delivered',
  'github_invitation_sent',
  'github_access_ready',
  'confirm_reminder',
  'purchase_confirmed',
  'refund_issued',
  'purchase_taken_down',
  'listing_updated',
  // Seller
  'new_sale',
  'sale_delivered',
  'funds_released',
  'sale_refunded',
  'payout_recorded',
  'new_review',
  'bank_details_approved',
  'bank_details_rejected',
  'webhook_endpoint_disabled',
  'listing_taken_down',
  'listing_restored',
  // Both parties
  'dispute_opened',
  'dispute_resolved',
  // Admins
  'admin_dispute_opened',
  'admin_counter_notice',
  'admin_delivery_stuck',
  'admin_bank_details_digest',
  'admin_reconciliation_exceptions',
] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** The preferences a user can turn off, and the kinds each one covers. */
export const OPTIONAL_NOTIFICATIONS = {
  reminders: {
    label: 'Reminders',
    description: 'A reminder 24 hours before a purchase is confirmed automatically.',
    kinds: ['confirm_reminder'],
  },
  updates: {
    label: 'Updates to things I bought',
    description:
      'Mail me when a listing I bought has a new version (a GitHub release or the seller’s version note). You still see it in your notifications.',
    kinds: ['listing_updated'],
  },
  digests: {
    label: 'Digests',
    description: 'For admins: a daily summary of bank details waiting for approval.',
    kinds: ['admin_bank_details_digest'],
  },
} as const satisfies Record<string, { label: string; description: string; kinds: readonly NotificationKind[] }>
export type NotificationPreference = keyof typeof OPTIONAL_NOTIFICATIONS
export const NOTIFICATION_PREFERENCES = Object.keys(OPTIONAL_NOTIFICATIONS) as NotificationPreference[]

/** The preference that covers `kind`, or null when the kind cannot be turned off. */
export function preferenceFor(kind: string): NotificationPreference | null {
  for (const name of NOTIFICATION_PREFERENCES) {
    if ((OPTIONAL_NOTIFICATIONS[name].kinds as readonly string[]).includes(kind)) return name
  }
  return null
}

/** How long before the automatic confirmation the buyer is reminded. */
export const CONFIRM_REMINDER_HOURS_BEFORE = 24

/** The time zones a user can pick for their mails (the runtime's IANA list), UTC first. */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')]
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** "Nov 3, 2026, 4:05 PM (Europe/Paris)", or in UTC with "UTC" said when the zone is not known. */
export function formatInTimeZone(value: Date | string, timeZone: string | null | undefined): string {
  const zone = timeZone && isTimeZone(timeZone) ? timeZone : 'UTC'
  const text = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(new Date(value))
  return zone === 'UTC' ? `${text} UTC` : `${text} (${zone})`
}
