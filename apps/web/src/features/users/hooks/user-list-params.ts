import type { Role, UserSource, UserStatus } from '@hdp/contract/user-lifecycle';
import type { USER_ORDERS } from '@hdp/contract';
import { DEFAULT_FILTER, DEFAULT_OFFSET, PAGE_SIZES } from '@/config/constants';
import type { ListUsersArgs } from '../api/list-users';

type All = typeof DEFAULT_FILTER;
export type UserOrder = (typeof USER_ORDERS)[number];

/** What the users table shows: the page, the search, the sort and the filters ('All' filters nothing). */
export interface UserListState {
  page: number;
  search: string;
  orderBy?: UserOrder;
  roles: (Role | All)[];
  status: UserStatus | All;
  userSource: UserSource | All;
}

export const INITIAL_USER_LIST_STATE: UserListState = {
  page: 1,
  search: '',
  roles: [DEFAULT_FILTER],
  status: DEFAULT_FILTER,
  userSource: DEFAULT_FILTER,
};

/** The list call for a table state: skip/limit from the page, 'All' left out, roles repeated. */
export function toListUsersArgs(state: UserListState, pageSize: number = PAGE_SIZES.users): ListUsersArgs {
  const roles = state.roles.filter((role): role is Role => role !== DEFAULT_FILTER);
  const search = state.search.trim();
  return {
    skip: DEFAULT_OFFSET + (state.page - 1) * pageSize,
    limit: pageSize,
    ...(search ? { search } : {}),
    ...(state.orderBy ? { order_by: state.orderBy } : {}),
    ...(roles.length > 0 ? { roles } : {}),
    ...(state.status !== DEFAULT_FILTER ? { status: [state.status] } : {}),
    ...(state.userSource !== DEFAULT_FILTER ? { user_source: [state.userSource] } : {}),
  };
}

/**
 * The roles filter after the user picked `values`: choosing 'All' clears the roles, choosing a
 * role drops 'All', and clearing everything comes back to 'All'.
 */
export function nextRolesFilter(previous: readonly (Role | All)[], values: readonly (Role | All)[]): (Role | All)[] {
  const addedAll = values.includes(DEFAULT_FILTER) && !previous.includes(DEFAULT_FILTER);
  const roles = values.filter((value) => value !== DEFAULT_FILTER);
  if (addedAll || roles.length === 0) return [DEFAULT_FILTER];
  return roles;
}

/** The order_by of a table sort: a column and a direction, or none. */
export function orderOf(column: 'name' | 'email' | 'created_at' | undefined, direction: 'ascend' | 'descend' | null | undefined): UserOrder | undefined {
  if (!column || !direction) return undefined;
  return (direction === 'descend' ? `-${column}` : column) as UserOrder;
}

/** "12 users", or "10,000+ users" when the API capped the count. */
export function describeTotal(total: number, capped: boolean): string {
  const count = total.toLocaleString('en-GB');
  return `${capped ? `${count}+` : count} ${total === 1 && !capped ? 'user' : 'users'}`;
}
