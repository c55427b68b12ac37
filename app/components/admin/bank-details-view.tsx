import type { BankAccountDetails } from '~/lib/bank-details-schema'
import { COUNTRIES, COUNTRY_LABELS, isOneOf } from '~/lib/options'

/** Sort code as banks print it: 04-00-04. */
const formatSortCode = (value: string) => (/^\d{6}$/.test(value) ? value.replace(/(\d{2})(\d{2})(\d{2})/, '$1-$2-$3') : value)
/** IBAN in groups of four, as on a bank statement. */
const formatIban = (value: string) => value.replace(/(.{4})/g, '$1 ').trim()

/**
 * A seller's bank details in full (admin only: the approval and payout screens).
 * Everywhere else numbers are masked to their last four characters.
 */
export function BankDetailsView({ details }: { details: BankAccountDetails }) {
  const rows: [string, string | null][] = [
    ['Country', isOneOf(COUNTRIES, details.country) ? COUNTRY_LABELS[details.country] : details.country],
    ['Account holder', details.accountHolder],
    ['Bank', details.bankName],
    ['Sort code', details.sortCode ? formatSortCode(details.sortCode) : null],
    ['Routing number', details.routingNumber],
    ['Account number', details.accountNumber],
    ['IBAN', details.iban ? formatIban(details.iban) : null],
    ['BIC/SWIFT', details.swift],
  ]
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border bg-muted/30 p-3 text-sm">
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="font-mono break-all text-foreground">{value}</dd>
          </div>
        ))}
    </dl>
  )
}
