import { useEffect, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import type { QueryExecutionStatus, QueryResult } from '@hdp/contract';
import { useAppSelector } from '@/app/hooks';
import { selectDataExplorer } from '../slice';
import { withoutIds } from '../query-tree';
import {
  isFinished,
  useExecuteAnonymousQueryMutation,
  useExecuteQueryMutation,
  useGetLatestQueryExecutionQuery,
  useGetQueryExecutionQuery,
} from '../api/executions';

/** How often a queued or running execution of a saved query is read again. */
export const EXECUTION_POLL_MS = 1_000;

export interface QueryRun {
  /** Starts a run: a saved, unedited query runs as a job; anything else runs at once, unsaved. */
  run: () => void;
  isRunning: boolean;
  /** PENDING or RUNNING while a saved query's job is under way. */
  status: QueryExecutionStatus | null;
  result: QueryResult | null;
  /** Why the last run failed, when the API said so in the execution. */
  error: string | null;
  /** The saved query's execution the result comes from (a cohort can be made from it); null for an unsaved run. */
  executionId: string | null;
}

/**
 * Runs the query in the editor and gives its latest result. Mount it again (a new React key)
 * when another query is opened, so results never belong to a different query.
 */
export function useQueryRun(): QueryRun {
  const { queryId, query, isQueryEdited } = useAppSelector(selectDataExplorer);
  const [executeAnonymous, anonymous] = useExecuteAnonymousQueryMutation();
  const [executeSaved, started] = useExecuteQueryMutation();
  const [source, setSource] = useState<'latest' | 'anonymous' | 'execution'>('latest');
  const [tracked, setTracked] = useState<{ queryId: string; queryExecutionId: string } | null>(null);

  const [pollingInterval, setPollingInterval] = useState(EXECUTION_POLL_MS);
  const execution = useGetQueryExecutionQuery(tracked ?? skipToken, { pollingInterval });
  const latest = useGetLatestQueryExecutionQuery(queryId && source === 'latest' ? queryId : skipToken);

  useEffect(() => {
    setPollingInterval(isFinished(execution.data) ? 0 : EXECUTION_POLL_MS);
  }, [execution.data]);

  const run = () => {
    if (queryId && !isQueryEdited) {
      setSource('execution');
      setTracked(null);
      executeSaved(queryId)
        .unwrap()
        .then((started) => setTracked({ queryId, queryExecutionId: started.id }))
        .catch(() => setTracked(null));
    } else {
      setSource('anonymous');
      void executeAnonymous(withoutIds(query));
    }
  };

  if (source === 'anonymous') {
    return { run, isRunning: anonymous.isLoading, status: null, result: anonymous.data ?? null, error: null, executionId: null };
  }
  if (source === 'execution') {
    const current = execution.data?.id === tracked?.queryExecutionId ? execution.data : undefined;
    const waiting = started.isLoading || (tracked !== null && !isFinished(current));
    return {
      run,
      isRunning: waiting,
      status: waiting ? (current?.status ?? 'PENDING') : null,
      result: current?.status === 'SUCCEEDED' ? current.result : null,
      error: current?.status === 'FAILED' ? current.error : null,
      executionId: current?.status === 'SUCCEEDED' ? current.id : null,
    };
  }
  const last = queryId ? latest.data : undefined;
  return {
    run,
    isRunning: false,
    status: null,
    result: last?.status === 'SUCCEEDED' ? last.result : null,
    error: last?.status === 'FAILED' ? last.error : null,
    executionId: last?.status === 'SUCCEEDED' ? last.id : null,
  };
}
