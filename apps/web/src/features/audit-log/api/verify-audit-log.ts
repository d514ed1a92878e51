import type { AuditChainReport } from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';

export const VERIFY_AUDIT_LOG_PATH = contractPath('verifyAuditLog', '/api/v1/logs/verify/');

/** The audit log's hash-chain verification (the API caches it for a minute). */
export const verifyAuditLogApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    verifyAuditLog: build.query<AuditChainReport, void>({
      query: () => ({ url: VERIFY_AUDIT_LOG_PATH, method: 'GET' }),
    }),
  }),
});

export const { useVerifyAuditLogQuery } = verifyAuditLogApi;
