import { useEffect, useRef } from 'react';
import { useRouter } from 'next/router';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppDispatch } from '@/app/hooks';
import { showToast } from '@/lib/errors/notifier';
import { useListQueriesQuery } from '../api/queries';
import { savedQueryOpened } from '../slice';

/** The saved query a link asks to open: `/data-explorer?queryId=<id>` (a cohort links to its source query so). */
export function requestedQueryId(query: Record<string, string | string[] | undefined>): string | null {
  const value = Array.isArray(query.queryId) ? query.queryId[0] : query.queryId;
  return value && /^[0-9a-f-]{36}$/i.test(value) ? value.toLowerCase() : null;
}

/**
 * Opens the saved query named in the address bar, then takes the id out of the address so that
 * "New query" or a reload does not open it again. The list call finds it by id (the contract has
 * no single-query read); a query the user may not see is not found, and a toast says so.
 */
export function useQueryFromUrl(onOpened: () => void): void {
  const router = useRouter();
  const dispatch = useAppDispatch();
  const queryId = router.isReady ? requestedQueryId(router.query) : null;
  const { data, isError } = useListQueriesQuery(queryId ? { skip: 0, limit: 1, id_search: queryId } : skipToken);
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (!queryId || (!data && !isError) || handled.current === queryId) return;
    handled.current = queryId;
    const found = data?.queries.find((query) => query.id === queryId);
    if (found) {
      dispatch(savedQueryOpened({ id: found.id, name: found.name, query: found.query }));
      onOpened();
    } else if (data) {
      showToast({ type: 'error', title: 'The query could not be opened', description: 'It was deleted, or it belongs to someone else.' });
    }
    void router.replace({ pathname: router.pathname }, undefined, { shallow: true });
  }, [queryId, data, isError, dispatch, onOpened, router]);
}
