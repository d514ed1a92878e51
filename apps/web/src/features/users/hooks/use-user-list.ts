import { useCallback, useMemo, useState } from 'react';
import { useListUsersQuery } from '../api/list-users';
import { INITIAL_USER_LIST_STATE, toListUsersArgs, type UserListState } from './user-list-params';

/**
 * The users table's state and its data. Changing the search, a filter or the sort goes back to
 * the first page; the list refreshes by itself after every change to a user (cache tags).
 */
export function useUserList() {
  const [state, setState] = useState<UserListState>(INITIAL_USER_LIST_STATE);
  const args = useMemo(() => toListUsersArgs(state), [state]);
  const query = useListUsersQuery(args);
  const update = useCallback((change: Partial<Omit<UserListState, 'page'>>) => setState((s) => ({ ...s, ...change, page: 1 })), []);
  const setPage = useCallback((page: number) => setState((s) => ({ ...s, page })), []);
  return { state, args, update, setPage, ...query };
}
