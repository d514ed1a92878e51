import type { AuditEntry } from '@hdp/contract';
import type { AuditRow } from './audit-log-repository';

/** An audit entry as the API shows it. */
export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    timestamp: row.occurredAt.toISOString(),
    actor: { id: row.actorId, email: row.actorEmail },
    event_type: row.eventType,
    resource: { type: row.resourceType, id: row.resourceId },
    outcome: row.outcome,
    message: row.message,
    client_address: row.clientAddress,
    user_agent: row.userAgent,
    request_id: row.requestId,
    details: row.details,
  };
}
