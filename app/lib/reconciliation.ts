/**
 * The rules the reconciliation checks (issue 19; app/server/domain/reconciliation-rules.server.ts),
 * each with the sentence the admin's tab, the CSV and the mail show.
 */
export const RECONCILIATION_RULES = {
  ledger_balanced: 'Debits equal credits, in the whole ledger and in every entry',
  provider_charges: 'Σ succeeded charges at the payment provider (less refunds) = Σ sales taken in the ledger, payment by payment',
  fee_rule: 'Each fee is the fee rule applied to its sale, posted once, only for a completed sale',
  seller_balance: 'For every seller, Σ seller share of sales taken = paid out + held in escrow + due',
  seller_payable: 'A sale’s seller share is owed while due, and paid out exactly once',
  escrow: 'A sale’s money is in escrow exactly while it is paid and not completed or refunded',
  refunded_not_paid_out: 'A refunded sale is never paid out',
} as const
export type ReconciliationRule = keyof typeof RECONCILIATION_RULES

/** The daily run's schedule (graphile-worker crontab, UTC), also said on the admin's tab. */
export const RECONCILIATION_CRONTAB = '15 4 * * *'
export const RECONCILIATION_DAILY_AT = '04:15 UTC'
