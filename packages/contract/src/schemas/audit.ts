import { z } from 'zod';
import { AUDIT_ORDERS, AuditEventType, AuditOutcome } from '../audit-events';
import { ListQuery, repeated, Timestamp } from './common';

/** The instant a date or date-time names (a date alone: the start of that UTC day). */
const instantOf = (value: string) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

/**
 * A date (`2026-11-21`, the whole day in UTC) or a date-time with offset, in the years 1 to 9999
 * (in UTC): the calendar's year 0000 and invalid days are not dates the database can compare with.
 */
const DateOrDateTime = z
  .iso.datetime({ offset: true })
  .or(z.iso.date())
  .refine((value) => {
    const year = instantOf(value).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, 'must be a real date in the years 0001 to 9999 (UTC)');

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
