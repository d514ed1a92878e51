import { describe, expect, it } from 'vitest';
import { can, hasRole, permissionsOf, PERMISSIONS, ROLES, rolesFor } from './index';

describe('hasRole', () => {
  it('passes only for an ACTIVE actor holding one of the allowed roles', () => {
    expect(hasRole({ status: 'ACTIVE', roles: ['RESEARCHER'] }, 'RESEARCHER')).toBe(true);
    expect(hasRole({ status: 'ACTIVE', roles: ['RESEARCHER'] }, ['ADMIN', 'RESEARCHER'])).toBe(true);
    expect(hasRole({ status: 'ACTIVE', roles: ['RESEARCHER'] }, ['ADMIN'])).toBe(false);
  });

  it('fails for an actor that is not ACTIVE, whatever its roles', () => {
    for (const status of ['INVITED', 'DISABLED', 'REVOKED'] as const) {
      expect(hasRole({ status, roles: ['ADMIN'] }, 'ADMIN')).toBe(false);
    }
  });

  it('fails for an actor with no roles, and for no actor', () => {
    expect(hasRole({ status: 'ACTIVE', roles: [] }, ['ADMIN', 'RESEARCHER', 'DATA_STEWARD', 'AUDITOR'])).toBe(false);
    expect(hasRole(undefined, 'ADMIN')).toBe(false);
    expect(hasRole(null, 'ADMIN')).toBe(false);
  });
});

describe('the permission matrix', () => {
  it('gives every action at least one role, and only known roles', () => {
    for (const actions of Object.values(PERMISSIONS)) {
      for (const roles of Object.values(actions)) {
        expect(roles.length).toBeGreaterThan(0);
        for (const role of roles) expect(ROLES).toContain(role);
      }
    }
  });

  it('reserves user management to ADMIN and the audit log to ADMIN and AUDITOR', () => {
    expect(rolesFor('users:invite')).toEqual(['ADMIN']);
    expect(rolesFor('auditLog:read')).toEqual(['ADMIN', 'AUDITOR']);
    expect(can({ status: 'ACTIVE', roles: ['AUDITOR'] }, 'queries:execute')).toBe(false);
    expect(can({ status: 'ACTIVE', roles: ['DATA_STEWARD'] }, 'cohorts:publish')).toBe(true);
    expect(can({ status: 'ACTIVE', roles: ['RESEARCHER'] }, 'cohorts:publish')).toBe(false);
  });

  it('opens the member directory to exactly those who may create or edit workbenches', () => {
    expect(rolesFor('users:directory')).toEqual(rolesFor('workbenches:create'));
    expect(rolesFor('users:directory')).toEqual(rolesFor('workbenches:update'));
    expect(can({ status: 'ACTIVE', roles: ['AUDITOR'] }, 'users:directory')).toBe(false);
  });

  it('lists the permissions an actor holds', () => {
    const auditor = permissionsOf({ status: 'ACTIVE', roles: ['AUDITOR'] });
    expect(auditor).toEqual(['me:read', 'me:logout', 'auditLog:read', 'account:manageFactors', 'account:manageSessions']);
    expect(permissionsOf({ status: 'DISABLED', roles: ['ADMIN'] })).toEqual([]);
  });

  it('throws on an unknown permission', () => {
    expect(() => rolesFor('users:fly' as never)).toThrow(/Unknown permission/);
  });
});
