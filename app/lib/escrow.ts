import type { TransactionStatus } from '../../db/schema.ts'
import type { DeliveryTimeframe } from './options'

/** Policy pages (spec §9): the buyer has 72 hours after delivery to report a problem; then the sale auto-confirms. */
export const DISPUTE_WINDOW_HOURS = 72
export const DISPUTE_WINDOW_MS = DISPUTE_WINDOW_HOURS * 60 * 60 * 1000
/** The same window in days, for copy ("3 days (72 hours)"). */
export const DISPUTE_WINDOW_DAYS = DISPUTE_WINDOW_HOURS / 24

/** Statuses in which the buyer owns the purchase (and may not buy the listing again). */
export const OWNED_STATUSES = ['paid', 'delivering', 'delivered', 'completed', 'disputed'] as const satisfies readonly TransactionStatus[]

/**
 * Statuses in which a buyer is told of a listing's new versions (issue 30, decision 036): they have the
 * code and the sale is not contested. Paid or delivering buyers get the current code at delivery;
 * a disputed sale may end in a refund, which takes access away; refunded and failed ones own nothing.
 */
export const UPDATE_RECIPIENT_STATUSES = ['delivered', 'completed'] as const satisfies readonly TransactionStatus[]

/** Statuses in which the buyer's payment is held in escrow: paid, and neither completed nor refunded. */
export const ESCROW_STATUSES = ['paid', 'delivering', 'delivered', 'disputed'] as const satisfies readonly TransactionStatus[]

/**
 * Sales, as admins list them: payment attempts that never got paid (still open,
 * or failed) are not sales (issue 14.6).
 */
export const SALE_STATUSES = [
  'paid',
  'delivering',
  'delivered',
  'completed',
  'disputed',
  'refunded',
  'held',
] as const satisfies readonly TransactionStatus[]

/** Statuses in which the buyer still has access to the delivered fork (a refund ends it). */
export const ACCESS_STATUSES = ['delivered', 'completed', 'disputed'] as const satisfies readonly TransactionStatus[]

export const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending_payment: 'Pending payment',
  paid: 'Paid',
  /** A GitHub invitation sent, not yet accepted (issue 16). */
  delivering: 'Delivering',
  delivered: 'Delivered',
  completed: 'Completed',
  disputed: 'Disputed',
  refunded: 'Refunded',
  failed: 'Failed',
  held: 'On hold',
}

export function statusLabel(status: TransactionStatus): string {
  return STATUS_LABELS[status]
}

/** The moment the dispute window closes: exactly 72 hours after delivery. */
export function windowEndsAt(deliveredAt: Date | string): Date {
  return new Date(new Date(deliveredAt).getTime() + DISPUTE_WINDOW_MS)
}

/** The window is open strictly before its end; at the end the sale is auto-confirmed instead. */
export function isWindowOpen(deliveredAt: Date | string, now: Date = new Date()): boolean {
  return now.getTime() < windowEndsAt(deliveredAt).getTime()
}

/** Milliseconds left in the window (0 once it has closed). */
export function msLeft(deliveredAt: Date | string, now: Date = new Date()): number {
  return Math.max(0, windowEndsAt(deliveredAt).getTime() - now.getTime())
}

/** "2 days 5 hours left", "3 hours 12 minutes left", "45 minutes left", "Window closed". */
export function timeLeft(deliveredAt: Date | string, now: Date = new Date()): string {
  const ms = msLeft(deliveredAt, now)
  if (ms <= 0) return 'Window closed'
  const totalMinutes = Math.ceil(ms / 60_000)
  const days = Math.floor(totalMinutes / (24 * 60))
  const hours = Math.floor((totalMinutes % (24 * 60)) / 60)
  const minutes = totalMinutes % 60
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  if (days > 0) return `${unit(days, 'day')}${hours ? ` ${unit(hours, 'hour')}` : ''} left`
  if (hours > 0) return `${unit(hours, 'hour')}${minutes ? ` ${unit(minutes, 'minute')}` : ''} left`
  return `${unit(minutes, 'minute')} left`
}

/** A fork URL must be an absolute https URL (the buyer's copy on the code-hosting platform). */
export function isValidForkUrl(value: string): boolean {
  try {
    const url = new URL(value.trim())
    return url.protocol === 'https:' && Boolean(url.hostname) && !url.username && !url.password
  } catch {
    return false
  }
}

/**
 * How long a seller has to deliver after payment: the longest end of the
 * listing's delivery timeframe (spec §5's options); a listing without one gets
 * a week. Past it the delivery is overdue: the receipt and the new-sale mail
 * say "deliver by", and the admins are told (issue 17).
 */
export const DELIVERY_LIMIT_HOURS: Record<DeliveryTimeframe, number> = {
  instant: 1,
  '1-hour': 1,
  '24-hours': 24,
  '1-3-days': 72,
  '3-5-days': 120,
}
export const DEFAULT_DELIVERY_LIMIT_HOURS = 7 * 24

function deliveryLimitHours(timeframe: string | null | undefined): number {
  return timeframe && timeframe in DELIVERY_LIMIT_HOURS
    ? DELIVERY_LIMIT_HOURS[timeframe as DeliveryTimeframe]
    : DEFAULT_DELIVERY_LIMIT_HOURS
}

/** The moment a paid sale's delivery falls due. */
export function deliveryDueAt(paidAt: Date | string, timeframe: string | null | undefined): Date {
  return new Date(new Date(paidAt).getTime() + deliveryLimitHours(timeframe) * 60 * 60 * 1000)
}

/** "due within 24 hours of payment", "due within 7 days of payment". */
export function deliveryLimitLabel(timeframe: string | null | undefined): string {
  const hours = deliveryLimitHours(timeframe)
  const span = hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hour${hours === 1 ? '' : 's'}`
  return `due within ${span} of payment`
}
