import { describe, expect, it } from 'vitest';
import { ROUTES } from '@hdp/contract';
import { LIST_AUDIT_LOG_PATH } from './list-audit-log';
import { VERIFY_AUDIT_LOG_PATH } from './verify-audit-log';

describe('audit log calls', () => {
  it('use the contract paths', () => {
    expect(LIST_AUDIT_LOG_PATH).toBe(ROUTES.listAuditLog.path);
    expect(VERIFY_AUDIT_LOG_PATH).toBe(ROUTES.verifyAuditLog.path);
    expect([ROUTES.listAuditLog.method, ROUTES.verifyAuditLog.method]).toEqual(['GET', 'GET']);
  });
});
