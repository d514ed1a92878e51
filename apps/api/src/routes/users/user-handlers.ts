import { rolesFor } from '@hdp/contract';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { notFound } from '../../http/api-error';
import { signOut } from '../../identity/session-commands';
import { presentDirectoryUser, presentMe, presentUser } from '../../users/user-presenter';
import { userRepository, type UserRow } from '../../users/user-repository';
import { DirectoryThrottle } from '../../users/directory-throttle';
import { changeUserStatus, USER_NOT_FOUND } from '../../users/user-status-changer';
import { inviteUsers, resendInvitation } from '../../users/user-inviter';

/**
 * The answer to GET /users/me/ (which the web app asks on every page), serialised once per loaded
 * user record. The principal directory replaces a record when the user changes and reloads it
 * every few seconds, so an answer never outlives the record it was made from.
 */
const meAnswers = new WeakMap<UserRow, Buffer>();

/** One directory throttle per running API (its services), so that apps in one process do not share it. */
const directoryThrottles = new WeakMap<object, DirectoryThrottle>();
function directoryThrottle(services: object): DirectoryThrottle {
  let throttle = directoryThrottles.get(services);
  if (!throttle) directoryThrottles.set(services, (throttle = new DirectoryThrottle()));
  return throttle;
}

export const userHandlers: RouteHandlers = {
  getMe: async (request, reply) => {
    const user = currentUser(request);
    let answer = meAnswers.get(user);
    if (!answer) {
      answer = Buffer.from(reply.serializeInput(presentMe(user), '200') as string);
      meAnswers.set(user, answer);
    }
    return reply.type('application/json; charset=utf-8').send(answer);
  },

  logout: async (request, reply) => {
    await signOut(request.server.services, currentUser(request), auditContextOf(request));
    return reply.code(204).send();
  },

  listUsers: async (request) => {
    const q = request.query;
    const { rows, ...total } = await userRepository.list(request.server.services.db, {
      skip: q.skip,
      limit: q.limit,
      search: q.search,
      orderBy: q.order_by,
      statuses: q.status,
      sources: q.user_source,
      roles: q.roles,
    });
    return { users: rows.map(presentUser), ...total };
  },

  /**
   * The member directory: only people who could be added to a workbench (ACTIVE, holding a role that
   * may use workbenches, the rule the member planner applies), so it tells no one about disabled,
   * invited or auditor accounts.
   */
  searchUserDirectory: async (request) => {
    const { search, limit } = request.query;
    directoryThrottle(request.server.services).take(currentUser(request).id);
    const { rows, more } = await userRepository.directory(request.server.services.db, { search, limit, roles: rolesFor('workbenches:read') });
    return { users: rows.map(presentDirectoryUser), more };
  },

  getUser: async (request) => {
    const user = await userRepository.findById(request.server.services.db, request.params.userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    return presentUser(user);
  },

  inviteUsers: async (request, reply) => {
    const result = await inviteUsers(request.server.services, currentUser(request), request.body, auditContextOf(request));
    return reply.code(201).send(result);
  },

  resendInvitation: async (request) =>
    presentUser(
      await resendInvitation(
        request.server.services,
        currentUser(request),
        request.params.userId,
        request.params.userEmail,
        auditContextOf(request),
      ),
    ),

  disableUser: async (request) =>
    presentUser(await changeUserStatus(request.server.services, currentUser(request), request.params.userId, 'disable', auditContextOf(request))),

  enableUser: async (request) =>
    presentUser(await changeUserStatus(request.server.services, currentUser(request), request.params.userId, 'enable', auditContextOf(request))),

  revokeInvitation: async (request) =>
    presentUser(await changeUserStatus(request.server.services, currentUser(request), request.params.userId, 'revoke', auditContextOf(request))),
};
