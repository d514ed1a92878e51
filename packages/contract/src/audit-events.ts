import { z } from 'zod';
import { AUDIT_EVENT_TYPES, AUDIT_ORDERS, AUDIT_OUTCOMES } from './audit-event-names';

export { AUDIT_EVENT_TYPES, AUDIT_ORDERS, AUDIT_OUTCOMES };

export const AuditEventType = z.enum(AUDIT_EVENT_TYPES);
export type AuditEventType = z.infer<typeof AuditEventType>;

export const AuditOutcome = z.enum(AUDIT_OUTCOMES);
export type AuditOutcome = z.infer<typeof AuditOutcome>;
