import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, ROUTES, rolesFor, type Role, type RouteContract } from '@hdp/contract';
import { samplePath, startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ROLES) tokens[role] = (await t.userWithRoles([role])).token;
});
afterAll(() => t.close());

const cases = Object.entries(ROUTES as Record<string, RouteContract>).flatMap(([id, route]) =>
  'permission' in route.access ? ROLES.map((role) => [id, role, route] as const) : [],
);

// Signing out and ending all one's sessions end the caller's own session, and its token is refused
// from the next request on: those calls get a session of their own, so later routes meet a live one.
const ENDS_OWN_SESSION = new Set(['logout', 'endAllMySessions']);

// Side effects of allowed calls are irrelevant here; the guard answers before any handler for denials.
describe('the permission matrix guards every route', () => {
  it.each(cases)('%s as %s', async (id, role, route) => {
    const permission = (route.access as { permission: Parameters<typeof rolesFor>[0] }).permission;
    const allowed = rolesFor(permission).includes(role);
    const token = ENDS_OWN_SESSION.has(id) ? (await t.userWithRoles([role])).token : tokens[role];
    const response = await t.request({ method: route.method, url: samplePath(route.path), token });
    if (allowed) {
      expect(response.statusCode, response.body).not.toBe(403);
      expect(response.statusCode).not.toBe(401);
    } else {
      expect(response.statusCode).toBe(403);
      expect(response.json().detail).toContain(permission);
    }
  });
});

describe('the role check', () => {
  it('refuses a user with no roles', async () => {
    const { user } = await t.userWithRoles(['RESEARCHER']);
    await t.services.db.execute(sql`update users set roles = '{}' where id = ${user.id}`);
    t.services.principals.invalidate(user.id);
    const response = await t.request({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: user.email, password: 'a-long-test-password' } });
    expect(response.statusCode).toBe(403);
  });

  it('a user holding several roles gets the union', async () => {
    const { token } = await t.userWithRoles(['AUDITOR', 'RESEARCHER']);
    const me = (await t.request({ method: 'GET', url: '/api/v1/users/me/', token })).json();
    expect(me.permissions).toContain('auditLog:read');
    expect(me.permissions).toContain('queries:create');
    expect(me.permissions).not.toContain('users:list');
  });
});
