import { useCallback, useEffect, useMemo, useState } from 'react';
import { useRouter } from 'next/router';
import { skipToken } from '@reduxjs/toolkit/query';
import { useListWorkbenchesQuery } from '../api/list-workbenches';
import { isProvisioning, PROVISIONING_POLL_MS } from '../provisioning';
import { parseWorkbenchListQuery, toListWorkbenchesArgs, toWorkbenchListQuery, type WorkbenchListState } from './workbench-list-params';

/**
 * The workbenches list's state, kept in the address bar, and its data. A new search goes back to
 * the first page. While any workbench shown is being provisioned the list asks again every few
 * seconds, so its state moves on without a reload.
 */
export function useWorkbenchList() {
  const router = useRouter();
  const state = useMemo(() => parseWorkbenchListQuery(router.query), [router.query]);
  const args = useMemo(() => toListWorkbenchesArgs(state), [state]);
  const [polling, setPolling] = useState(false);
  // Before hydration the query is empty: wait for it rather than fetch the unsearched list first.
  const query = useListWorkbenchesQuery(router.isReady ? args : skipToken, { pollingInterval: polling ? PROVISIONING_POLL_MS : 0 });
  const provisioning = (query.currentData?.workbenches ?? []).some((workbench) => isProvisioning(workbench.state));
  useEffect(() => setPolling(provisioning), [provisioning]);

  const navigate = useCallback(
    (next: WorkbenchListState) => {
      void router.replace({ pathname: router.pathname, query: toWorkbenchListQuery(next) }, undefined, { shallow: true, scroll: false });
    },
    [router],
  );
  const setSearch = useCallback((search: string) => navigate({ ...state, search, page: 1 }), [navigate, state]);
  const setPage = useCallback((page: number) => navigate({ ...state, page }), [navigate, state]);
  const setView = useCallback((view: WorkbenchListState['view']) => navigate({ ...state, view }), [navigate, state]);
  return { state, args, setSearch, setPage, setView, ...query };
}
