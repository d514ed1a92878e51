import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canTransition, ROLES, USER_STATUSES, USER_TRANSITIONS } from './user-lifecycle';
import { Role, UserStatus, canTransition as fromRoles } from './roles';

describe('the user lifecycle entry', () => {
  it('carries no zod, so the browser bundle can import it', () => {
    const source = fs.readFileSync(new URL('./user-lifecycle.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from ['"]zod['"]/);
  });

  it('is the one table behind the zod enums and the main entry', () => {
    expect(Role.options).toEqual([...ROLES]);
    expect(UserStatus.options).toEqual([...USER_STATUSES]);
    expect(fromRoles).toBe(canTransition);
  });

  it('allows each change only from its states', () => {
    const allowed = USER_STATUSES.flatMap((status) =>
      (Object.keys(USER_TRANSITIONS) as (keyof typeof USER_TRANSITIONS)[]).filter((t) => canTransition(status, t)).map((t) => `${status}:${t}`),
    );
    expect(allowed).toEqual(['INVITED:accept', 'INVITED:resendInvitation', 'INVITED:revoke', 'ACTIVE:disable', 'DISABLED:enable']);
  });
});
