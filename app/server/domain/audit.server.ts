import type { Kysely, Transaction } from 'kysely'
import type { AuditActorRole, DB } from '../../../db/schema.ts'

export interface AuditEntry {
  actorId: string | null
  actorRole: AuditActorRole
  action: string
  entityType: string
  entityId: string
  fromState?: string | null
  toState?: string | null
  reason?: string | null
  metadata?: Record<string, unknown>
}

/**
 * Appends one row to the audit log: who did what to which entity, from which
 * state to which, and why. Pass the open database transaction so the record
 * commits (or rolls back) together with the change it describes.
 */
export async function recordAudit(executor: Kysely<DB> | Transaction<DB>, entry: AuditEntry): Promise<void> {
  await executor
    .insertInto('auditLog')
    .values({
      actorId: entry.actorId,
      actorRole: entry.actorRole,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      fromState: entry.fromState ?? null,
      toState: entry.toState ?? null,
      reason: entry.reason ?? null,
      metadata: entry.metadata ? JSON.stringify(entry.metadata) : null,
    })
    .execute()
}
