import { describe, expect, it } from 'vitest';
import {
  describeWorkbenchTotal,
  INITIAL_WORKBENCH_LIST_STATE,
  parseWorkbenchListQuery,
  toListWorkbenchesArgs,
  toWorkbenchListQuery,
} from './workbench-list-params';

describe('the workbenches list parameters', () => {
  it('open on the first page of 10 cards, unsearched', () => {
    expect(parseWorkbenchListQuery({})).toEqual(INITIAL_WORKBENCH_LIST_STATE);
    expect(toListWorkbenchesArgs(INITIAL_WORKBENCH_LIST_STATE)).toEqual({ skip: 0, limit: 10 });
    expect(toWorkbenchListQuery(INITIAL_WORKBENCH_LIST_STATE)).toEqual({});
  });

  it('read the address bar, falling back to the defaults for anything malformed', () => {
    expect(parseWorkbenchListQuery({ page: '3', search: ' kidney ', view: 'table' })).toEqual({ page: 3, search: 'kidney', view: 'table' });
    expect(parseWorkbenchListQuery({ page: '0', view: 'grid' })).toEqual(INITIAL_WORKBENCH_LIST_STATE);
    expect(parseWorkbenchListQuery({ page: '2.5' }).page).toBe(1);
    expect(parseWorkbenchListQuery({ page: ['2', '4'] }).page).toBe(2);
  });

  it('write only what differs from the defaults, and read back the same state', () => {
    const state = { page: 2, search: 'renal', view: 'table' as const };
    expect(toWorkbenchListQuery(state)).toEqual({ search: 'renal', view: 'table', page: '2' });
    expect(parseWorkbenchListQuery(toWorkbenchListQuery(state))).toEqual(state);
  });

  it('send the page as skip and limit, with the search trimmed', () => {
    expect(toListWorkbenchesArgs({ page: 3, search: '  heart ', view: 'cards' })).toEqual({ skip: 20, limit: 10, search: 'heart' });
  });

  it('say how many workbenches there are, with 10,000+ when capped', () => {
    expect(describeWorkbenchTotal(1, false)).toBe('1 workbench');
    expect(describeWorkbenchTotal(1234, false)).toBe('1,234 workbenches');
    expect(describeWorkbenchTotal(10_000, true)).toBe('10,000+ workbenches');
  });
});
