import type { AuditEntry, AuditEventType, AuditOutcome } from '@hdp/contract';
import type { AUDIT_ORDERS } from '@hdp/contract/audit-event-names';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const LIST_AUDIT_LOG_PATH = contractPath('listAuditLog', '/api/v1/logs/');

export type AuditOrder = (typeof AUDIT_ORDERS)[number];

/** The query of `GET /api/v1/logs/`; dates are ISO date-times with offset. */
export interface ListAuditLogArgs {
  search?: string;
  event_type?: AuditEventType[];
  outcome?: AuditOutcome[];
  start_date?: string;
  end_date?: string;
  order_by: AuditOrder;
  skip: number;
  limit: number;
}

export interface AuditLogPage {
  entries: AuditEntry[];
  total: number;
  total_capped: boolean;
}

/** A filtered page of the audit log (ADMIN and AUDITOR). */
export const listAuditLogApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listAuditLog: build.query<AuditLogPage, ListAuditLogArgs>({
      query: (params) => ({ url: LIST_AUDIT_LOG_PATH, method: 'GET', params: { ...params } }),
    }),
  }),
});

export const { useListAuditLogQuery } = listAuditLogApi;
