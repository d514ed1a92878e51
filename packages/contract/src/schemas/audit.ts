import { z } from 'zod';
import { AUDIT_ORDERS, AuditEventType, AuditOutcome } from '../audit-events';
import { ListQuery, repeated, Timestamp } from './common';

/** A date (`2026-11-21`, the whole day in UTC) or a date-time with offset. */
const DateOrDateTime = z.iso.datetime({ offset: true }).or(z.iso.date());

export const AuditLogQuery = ListQuery.extend({
  event_type: repeated(AuditEventType).optional(),
  outcome: repeated(AuditOutcome).optional(),
  start_date: DateOrDateTime.optional(),
  end_date: DateOrDateTime.optional(),
  order_by: z.enum(AUDIT_ORDERS).default('TIMESTAMP_DESC'),
});

export const AuditEntry = z
  .object({
    seq: z.number().int(),
    timestamp: Timestamp,
    actor: z.object({ id: z.string().nullable(), email: z.string().nullable() }),
    event_type: AuditEventType,
    resource: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
    outcome: AuditOutcome,
    message: z.string(),
    client_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    request_id: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditChainReport = z
  .object({
    ok: z.boolean(),
    entries: z.number().int(),
    verified_up_to: z.number().int().nullable(),
    first_broken: z.object({ seq: z.number().int(), reason: z.string() }).nullable(),
    checked_at: Timestamp,
  })
  .meta({ id: 'AuditChainReport' });
export type AuditChainReport = z.infer<typeof AuditChainReport>;
