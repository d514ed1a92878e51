import { z } from 'zod';
import { Role, UserSource, UserStatus } from '../roles';
import { ALL_PERMISSIONS } from '../permissions';
import { ListQuery, repeated, Timestamp } from './common';
import { LIMITS } from '../limits';

export const PermissionName = z.enum(ALL_PERMISSIONS as [string, ...string[]]);

export const User = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    roles: z.array(Role),
    status: UserStatus,
    user_source: UserSource,
    created_at: Timestamp,
    /** For an INVITED user: when the current invitation link expires (null otherwise). */
    invitation_expires_at: Timestamp.nullable(),
    /** An INVITED user whose link has expired: it can be re-sent. */
    invitation_expired: z.boolean(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const Me = User.extend({ permissions: z.array(PermissionName) }).meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

export const USER_ORDERS = ['email', '-email', 'name', '-name', 'created_at', '-created_at'] as const;

export const UserListQuery = ListQuery.extend({
  order_by: z.enum(USER_ORDERS).optional(),
  user_source: repeated(UserSource).optional(),
  status: repeated(UserStatus).optional(),
  roles: repeated(Role).optional(),
});

/**
 * A search of the member directory: part of a name or an email (case is ignored; `%` and `_` are
 * plain characters), and how many people to return at most.
 */
export const UserDirectoryQuery = z.object({
  search: z
    .string({ error: `give at least ${LIMITS.directorySearchMinLength} characters of a name or an email` })
    .trim()
    .min(LIMITS.directorySearchMinLength, `give at least ${LIMITS.directorySearchMinLength} characters of a name or an email`)
    .max(100, 'give at most 100 characters'),
  limit: z.coerce.number().int().min(1).max(LIMITS.directoryMaxResults).default(10),
});

/** A person as the member directory shows them: who they are, nothing about their account. */
export const DirectoryUser = z
  .object({ id: z.uuid(), email: z.string(), name: z.string().nullable() })
  .meta({ id: 'DirectoryUser' });
export type DirectoryUser = z.infer<typeof DirectoryUser>;

/** The people a directory search found, by email; `more` when others matched beyond `limit`. */
export const UserDirectory = z
  .object({ users: z.array(DirectoryUser), more: z.boolean() })
  .meta({ id: 'UserDirectory' });
export type UserDirectory = z.infer<typeof UserDirectory>;

/** The body `request` of POST /users/: one or more people to invite. */
export const InviteUsersRequest = z
  .object({
    invitations: z
      .array(
        z.object({
          email: z.email().max(320),
          roles: z.array(Role).min(1, 'give at least one role'),
          name: z.string().trim().min(1).max(200).optional(),
          user_source: UserSource.default('LOCAL'),
        }),
      )
      .min(1, 'invite at least one person')
      .max(100, 'invite at most 100 people at once'),
  })
  .meta({ id: 'InviteUsersRequest' });
export type InviteUsersRequest = z.infer<typeof InviteUsersRequest>;

export const INVITATION_OUTCOMES = ['INVITED', 'ALREADY_EXISTS', 'DUPLICATE_IN_REQUEST'] as const;

/** What happened to each address of an invitation request. */
export const InviteUsersResponse = z
  .object({
    results: z.array(
      z.object({
        email: z.string(),
        outcome: z.enum(INVITATION_OUTCOMES),
        detail: z.string().nullable(),
        user: User.nullable(),
        email_sent: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'InviteUsersResponse' });
export type InviteUsersResponse = z.infer<typeof InviteUsersResponse>;

/** An invitation token, as found in the link. Sent in a body so it stays out of URL logs. */
export const InvitationTokenRequest = z.object({ token: z.string().min(16).max(128) }).meta({ id: 'InvitationTokenRequest' });

/** What the accept-invitation page shows before the person accepts. */
export const InvitationInfo = z
  .object({
    email: z.string(),
    name: z.string().nullable(),
    user_source: UserSource,
    expires_at: Timestamp,
  })
  .meta({ id: 'InvitationInfo' });
export type InvitationInfo = z.infer<typeof InvitationInfo>;

/**
 * Accepting an invitation: a local account sets its password; an external identity proves itself
 * with an id token from the configured identity provider.
 */
export const AcceptInvitationRequest = z
  .object({
    token: z.string().min(16).max(128),
    password: z.string().max(LIMITS.passwordMaxLength).optional(),
    id_token: z.string().max(8192).optional(),
  })
  .meta({ id: 'AcceptInvitationRequest' });
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;
