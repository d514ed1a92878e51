import { useCallback, useMemo } from 'react';
import { useRouter } from 'next/router';
import { skipToken } from '@reduxjs/toolkit/query';
import { useListCohortsQuery } from '../api/list-cohorts';
import { parseCohortListQuery, toCohortListQuery, toListCohortsArgs, type CohortListState } from './cohort-list-params';

/**
 * The cohorts list's state, kept in the address bar, and its data. Changing the search, a filter
 * or the sort goes back to the first page; the view and the page keep the rest. The list refreshes
 * by itself after every change to a cohort (cache tags).
 */
export function useCohortList() {
  const router = useRouter();
  const state = useMemo(() => parseCohortListQuery(router.query), [router.query]);
  const args = useMemo(() => toListCohortsArgs(state), [state]);
  // Before hydration the query is empty: wait for it rather than fetch the unfiltered list first.
  const query = useListCohortsQuery(router.isReady ? args : skipToken);

  const navigate = useCallback(
    (next: CohortListState) => {
      void router.replace({ pathname: router.pathname, query: toCohortListQuery(next) }, undefined, { shallow: true, scroll: false });
    },
    [router],
  );
  const update = useCallback((change: Partial<Omit<CohortListState, 'page' | 'view'>>) => navigate({ ...state, ...change, page: 1 }), [navigate, state]);
  const setPage = useCallback((page: number) => navigate({ ...state, page }), [navigate, state]);
  const setView = useCallback((view: CohortListState['view']) => navigate({ ...state, view }), [navigate, state]);
  return { state, args, update, setPage, setView, ...query };
}
