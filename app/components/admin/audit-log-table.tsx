import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { formatDateTime } from '~/lib/format'
import type { AuditLogEntry } from '~/server/domain/admin.server'

export type AuditLogRow = Omit<AuditLogEntry, 'createdAt'> & { createdAt: string | Date }

/** Who did what, when, from which state to which, and why (latest first). */
export function AuditLogTable({ entries }: { entries: AuditLogRow[] }) {
  if (entries.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">Nothing recorded yet</p>
  return (
    <Table label="Audit log">
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>Who</TableHead>
          <TableHead>Action</TableHead>
          <TableHead>On</TableHead>
          <TableHead>Change</TableHead>
          <TableHead>Reason</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id}>
            <TableCell className="font-medium whitespace-nowrap">{formatDateTime(entry.createdAt)}</TableCell>
            <TableCell label="Who">
              {entry.actorEmail ?? '—'} <span className="text-xs text-muted-foreground">({entry.actorRole})</span>
            </TableCell>
            <TableCell label="Action" className="font-mono text-xs whitespace-nowrap">
              {entry.action}
            </TableCell>
            <TableCell label="On" className="text-xs">
              {entry.entityType}{' '}
              <span className="font-mono" title={entry.entityId}>
                {entry.entityId.slice(0, 8)}
              </span>
            </TableCell>
            <TableCell label="Change" className="text-xs whitespace-nowrap">
              {entry.fromState ?? '—'} → {entry.toState ?? '—'}
            </TableCell>
            <TableCell label="Reason" className="max-w-xs text-xs break-words">
              {entry.reason ?? ''}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
