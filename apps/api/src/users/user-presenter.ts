import { permissionsOf, type DirectoryUser, type Me, type User } from '@hdp/contract';
import type { DirectoryRow, UserRow } from './user-repository';

/** The fields of a user that leave the server; the password hash never does. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: row.roles,
    status: row.status,
    user_source: row.userSource,
    created_at: row.createdAt.toISOString(),
    invitation_expires_at: row.status === 'INVITED' && row.invitationExpiresAt ? row.invitationExpiresAt.toISOString() : null,
    invitation_expired: row.status === 'INVITED' && !!row.invitationExpiresAt && row.invitationExpiresAt.getTime() <= Date.now(),
  };
}

/** The current user, with the permissions the matrix gives them. */
export function presentMe(row: UserRow): Me {
  return { ...presentUser(row), permissions: permissionsOf(row) };
}

/** A person as the member directory shows them: id, email and name, nothing about their account. */
export function presentDirectoryUser(row: DirectoryRow): DirectoryUser {
  return { id: row.id, email: row.email, name: row.name };
}
