import type { RouteHandlers } from '../../http/route-types';
import { auditLogRepository } from '../../audit/audit-log-repository';
import { presentAuditEntry } from '../../audit/audit-presenter';
import { badRequest } from '../../http/api-error';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600 * 1000;

/** A date alone means the whole UTC day: from its start, or until the start of the next day. */
function bound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  return end && DATE_ONLY.test(value) ? new Date(date.getTime() + DAY_MS) : end ? new Date(date.getTime() + 1) : date;
}

export const auditHandlers: RouteHandlers = {
  listAuditLog: async (request) => {
    const q = request.query;
    const from = bound(q.start_date, false);
    const until = bound(q.end_date, true);
    if (from && until && from >= until) throw badRequest('query.start_date: must be before end_date');
    const { rows, ...total } = await auditLogRepository.list(request.server.services.db, {
      skip: q.skip,
      limit: q.limit,
      search: q.search,
      eventTypes: q.event_type,
      outcomes: q.outcome,
      from,
      until,
      order: q.order_by,
    });
    return { entries: rows.map(presentAuditEntry), ...total };
  },

  verifyAuditLog: async (request) => request.server.services.chainVerification.report(),
};
