import { describe, expect, it } from 'vitest';
import { describeTotal, INITIAL_USER_LIST_STATE, nextRolesFilter, orderOf, toListUsersArgs } from './user-list-params';

describe('the users list parameters', () => {
  it('start on the first page, 15 a page, every filter at All', () => {
    expect(INITIAL_USER_LIST_STATE).toMatchObject({ page: 1, roles: ['All'], status: 'All', userSource: 'All' });
    expect(toListUsersArgs(INITIAL_USER_LIST_STATE)).toEqual({ skip: 0, limit: 15 });
  });

  it('send the page as skip/limit, the search trimmed, the sort and the chosen filters', () => {
    expect(
      toListUsersArgs({ page: 3, search: '  ada ', orderBy: '-created_at', roles: ['ADMIN', 'AUDITOR'], status: 'INVITED', userSource: 'LOCAL' }),
    ).toEqual({ skip: 30, limit: 15, search: 'ada', order_by: '-created_at', roles: ['ADMIN', 'AUDITOR'], status: ['INVITED'], user_source: ['LOCAL'] });
  });

  it("keep 'All' and the roles apart", () => {
    expect(nextRolesFilter(['All'], ['All', 'ADMIN'])).toEqual(['ADMIN']);
    expect(nextRolesFilter(['ADMIN'], ['ADMIN', 'RESEARCHER'])).toEqual(['ADMIN', 'RESEARCHER']);
    expect(nextRolesFilter(['ADMIN', 'RESEARCHER'], ['ADMIN', 'RESEARCHER', 'All'])).toEqual(['All']);
    expect(nextRolesFilter(['ADMIN'], [])).toEqual(['All']);
  });

  it('turn a table sort into order_by', () => {
    expect(orderOf('email', 'ascend')).toBe('email');
    expect(orderOf('name', 'descend')).toBe('-name');
    expect(orderOf('email', null)).toBeUndefined();
  });

  it('say how many users there are, with 10,000+ when capped', () => {
    expect(describeTotal(1, false)).toBe('1 user');
    expect(describeTotal(1234, false)).toBe('1,234 users');
    expect(describeTotal(10_000, true)).toBe('10,000+ users');
  });
});
