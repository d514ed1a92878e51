import { describe, expect, it } from 'vitest';
import {
  describeTotal,
  INITIAL_COHORT_LIST_STATE,
  parseCohortListQuery,
  toCohortListQuery,
  toListCohortsArgs,
  type CohortListState,
} from './cohort-list-params';

describe('the cohorts list parameters', () => {
  it('open on the first page of 12 cards, every status, newest update first', () => {
    expect(parseCohortListQuery({})).toEqual(INITIAL_COHORT_LIST_STATE);
    expect(INITIAL_COHORT_LIST_STATE).toMatchObject({ page: 1, status: 'All', tags: [], orderBy: '-updated_at', view: 'cards' });
    expect(toListCohortsArgs(INITIAL_COHORT_LIST_STATE)).toEqual({ skip: 0, limit: 12, order_by: '-updated_at' });
    expect(toCohortListQuery(INITIAL_COHORT_LIST_STATE)).toEqual({});
  });

  it('read the address bar: page, search, status in any case, repeated tags, sort and view', () => {
    expect(
      parseCohortListQuery({ page: '3', search: ' diabetes ', status: 'published', tag: ['Diabetes', ' women', 'diabetes'], sort: 'name', view: 'table' }),
    ).toEqual({ page: 3, search: 'diabetes', status: 'PUBLISHED', tags: ['diabetes', 'women'], orderBy: 'name', view: 'table' });
    expect(parseCohortListQuery({ tag: 'renal' }).tags).toEqual(['renal']);
  });

  it('fall back to the defaults for anything malformed', () => {
    expect(parseCohortListQuery({ page: '0', status: 'DELETED', sort: 'password', view: 'grid' })).toEqual(INITIAL_COHORT_LIST_STATE);
    expect(parseCohortListQuery({ page: '2.5' }).page).toBe(1);
    expect(parseCohortListQuery({ page: ['2', '4'] }).page).toBe(2);
    expect(parseCohortListQuery({ tag: ['', 'x'.repeat(41)] }).tags).toEqual([]);
  });

  it('write only what differs from the defaults, and read back the same state', () => {
    const state: CohortListState = { page: 2, search: 'renal', status: 'ARCHIVED', tags: ['ckd', 'renal'], orderBy: '-person_count', view: 'table' };
    const query = toCohortListQuery(state);
    expect(query).toEqual({ search: 'renal', status: 'archived', tag: ['ckd', 'renal'], sort: '-person_count', view: 'table', page: '2' });
    expect(parseCohortListQuery(query)).toEqual(state);
  });

  it('send the page as skip/limit, the search trimmed, one status and the tags', () => {
    expect(toListCohortsArgs({ ...INITIAL_COHORT_LIST_STATE, page: 3, search: '  heart ', status: 'PUBLISHED', tags: ['cardio'], orderBy: 'name' })).toEqual({
      skip: 24,
      limit: 12,
      search: 'heart',
      status: 'PUBLISHED',
      tags: ['cardio'],
      order_by: 'name',
    });
  });

  it('say how many cohorts there are, with 10,000+ when capped', () => {
    expect(describeTotal(1, false)).toBe('1 cohort');
    expect(describeTotal(1234, false)).toBe('1,234 cohorts');
    expect(describeTotal(10_000, true)).toBe('10,000+ cohorts');
  });
});
