import { Link } from 'react-router'
import { cn } from '~/components/ui/cn'

export const ADMIN_TABS = ['transactions', 'payouts', 'reconciliation', 'bank-details', 'audit-log'] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

/**
 * Tabs as links (?tab=…): each tab is its own server-rendered page, so they
 * work without JavaScript and can be bookmarked; styled like the UI kit's tabs.
 */
export function AdminTabs({ current, pendingBankCount }: { current: AdminTab; pendingBankCount: number }) {
  const labels: Record<AdminTab, string> = {
    transactions: 'Transactions',
    payouts: 'Payouts',
    reconciliation: 'Reconciliation',
    'bank-details': `Bank Details (${pendingBankCount})`,
    'audit-log': 'Audit log',
  }
  return (
    <nav
      aria-label="Admin sections"
      className="inline-flex h-9 w-fit max-w-full items-center overflow-x-auto rounded-lg bg-muted p-[3px] text-muted-foreground"
    >
      {ADMIN_TABS.map((tab) => (
        <Link
          key={tab}
          to={`?tab=${tab}`}
          aria-current={current === tab ? 'page' : undefined}
          className={cn(
            'inline-flex h-full items-center justify-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-[color,box-shadow] hover:text-foreground',
            current === tab && 'bg-background text-foreground shadow-sm',
          )}
        >
          {labels[tab]}
        </Link>
      ))}
      {/* Issue 30: the moderation queue is its own page (its forms post there). */}
      <Link
        to="/admin/moderation"
        className="inline-flex h-full items-center justify-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-[color,box-shadow] hover:text-foreground"
      >
        Moderation
      </Link>
    </nav>
  )
}
