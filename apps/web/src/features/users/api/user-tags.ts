import type { User } from '@hdp/contract';

/** The cache tag of every users list: a change to any user refreshes them. */
export const USER_LIST_TAG = { type: 'Users', id: 'LIST' } as const;

/** The cache tags a change to one user invalidates: that user and every list. */
export function userChangeTags(userId: string) {
  return [{ type: 'Users' as const, id: userId }, USER_LIST_TAG];
}

/** The cache tags a users list provides: each user on the page and the list itself. */
export function userListTags(users: readonly Pick<User, 'id'>[] | undefined) {
  return [...(users ?? []).map((user) => ({ type: 'Users' as const, id: user.id })), USER_LIST_TAG];
}
