import type { Database } from '../db/database';
import { appendAuditEntry } from '../audit/audit-trail';
import { z } from 'zod';
import type { Role } from '@hdp/contract';
import { ApiError, badRequest, conflict } from '../http/api-error';
import { assertPasswordAcceptable } from '../identity/password-policy';
import { generatePassword, hashPassword } from '../identity/passwords';
import { userRepository, type UserRow } from './user-repository';

export interface CreatedAdmin {
  user: UserRow;
  /** Set when the password was generated: it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/** Creates an ACTIVE local account with the given roles (first start, or the command line). */
export async function createUser(
  db: Database,
  input: { email: string; name?: string; password?: string; roles: Role[] },
  actor: string,
): Promise<CreatedAdmin> {
  if (!z.email().safeParse(input.email).success) throw badRequest(`email: ${input.email} is not a valid email address`);
  if (input.password !== undefined) assertPasswordAcceptable(input.password, { email: input.email, name: input.name });
  const generatedPassword = input.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(input.password ?? generatedPassword!);
  const user = await db.transaction(async (tx) => {
    if (await userRepository.findByEmail(tx, input.email)) throw conflict(`A user with email ${input.email} already exists.`);
    const row = await userRepository.insert(tx, {
      email: input.email,
      name: input.name ?? null,
      roles: input.roles,
      status: 'ACTIVE',
      userSource: 'LOCAL',
      passwordHash,
    });
    await appendAuditEntry(tx, { actorEmail: actor }, {
      eventType: 'USER_CREATED',
      outcome: 'SUCCESS',
      message: `${actor} created ${row.roles.join(', ')} account ${row.email}`,
      resourceType: 'user',
      resourceId: row.id,
      details: { roles: row.roles },
    });
    return row;
  });
  return { user, generatedPassword };
}

/** What start-up did about the administrator named by ADMIN_EMAIL, in words for the operator's terminal. */
export type AdminAtStart =
  | { kind: 'created'; created: CreatedAdmin }
  | { kind: 'exists' }
  | { kind: 'not-created'; reason: string };

/**
 * Creates the ADMIN named by ADMIN_EMAIL (with ADMIN_PASSWORD, or a generated password) when that
 * account is missing and the platform has no active administrator: a first start, and also a
 * first start after accounts were made on the command line before it (none of them an
 * administrator). When other administrators exist it creates nobody (a changed ADMIN_EMAIL must not
 * mint a second administrator by itself) and says so, with how to make one.
 */
export async function adminAtStart(db: Database, admin: { email: string; name: string; password?: string }): Promise<AdminAtStart> {
  if (await userRepository.findByEmail(db, admin.email)) return { kind: 'exists' };
  if ((await userRepository.countActiveAdmins(db)) > 0) {
    return {
      kind: 'not-created',
      reason:
        `No administrator was created: ADMIN_EMAIL ${admin.email} has no account, and the platform already has an active administrator. ` +
        'Sign in as that administrator, or make one with `npm run hdp -- admin create --email <address>` while the platform is stopped.',
    };
  }
  const created = await createFirstAdmin(db, admin);
  return { kind: 'created', created };
}

/** On first start (no users at all) creates the first ADMIN from ADMIN_EMAIL and ADMIN_PASSWORD. */
export async function ensureFirstAdmin(
  db: Database,
  admin: { email: string; name: string; password?: string },
): Promise<CreatedAdmin | undefined> {
  if ((await userRepository.count(db)) > 0) return undefined;
  return createFirstAdmin(db, admin);
}

async function createFirstAdmin(db: Database, admin: { email: string; name: string; password?: string }): Promise<CreatedAdmin> {
  try {
    return await createUser(db, { ...admin, roles: ['ADMIN'] }, 'system (first start)');
  } catch (error) {
    // Start-up stops with the variable named, as for any other bad setting.
    if (error instanceof ApiError) throw new Error(`Invalid configuration: ${error.detail.replace(/^password:/, 'ADMIN_PASSWORD').replace(/^email:/, 'ADMIN_EMAIL')}`);
    throw error;
  }
}
