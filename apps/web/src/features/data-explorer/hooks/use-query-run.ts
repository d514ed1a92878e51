import { useEffect, useRef, useState } from 'react';
import { skipToken, type FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { QueryExecutionStatus, QueryGroup, QueryResult } from '@hdp/contract';
import { QUERY_NOT_EXECUTED } from '@hdp/contract/query-details';
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

export const SERVER_UNREACHABLE = 'Unable to reach the server. Check your network connection and try again.';

/** A result on screen and where it came from. */
interface Shown {
  result: QueryResult;
  /** When it was counted (ISO). */
  at: string;
  /** The saved query's execution behind it (a cohort can be made from it); null for an unsaved run. */
  executionId: string | null;
  /** The criteria it answers (the tree as it was run). */
  query: QueryGroup;
}

export interface QueryRun {
  /** Starts a run: a saved, unedited query runs as a job; anything else runs at once, unsaved. */
  run: () => void;
  isRunning: boolean;
  /** PENDING or RUNNING while a saved query's job is under way. */
  status: QueryExecutionStatus | null;
  /** The last successful result: kept on screen when a later run fails. */
  result: QueryResult | null;
  /** When that result was counted (ISO). */
  resultAt: string | null;
  /** Why the last run failed (null when it succeeded or none ran). */
  error: string | null;
  /** The saved query's execution the result comes from (a cohort can be made from it); null for an unsaved run. */
  executionId: string | null;
  /** The saved query has never been run. */
  isNotRunYet: boolean;
  /** The criteria the result answers (the tree as it was run). */
  resultQuery: QueryGroup | null;
}

function detailOf(error: FetchBaseQueryError | SerializedError | undefined): string | undefined {
  if (!error || !('status' in error)) return undefined;
  const data = (error as { data?: unknown }).data;
  return data && typeof data === 'object' && 'detail' in data && typeof (data as { detail: unknown }).detail === 'string'
    ? (data as { detail: string }).detail
    : undefined;
}

/** Why a call of a run failed, in words: the server's reason, or that it could not be reached. */
export function runFailureReason(error: FetchBaseQueryError | SerializedError | undefined): string {
  if (error && 'status' in error) {
    if (error.status === 'FETCH_ERROR' || error.status === 502) return SERVER_UNREACHABLE;
    if (error.status === 'TIMEOUT_ERROR' || error.status === 504) return 'The server took too long to answer. Try again in a moment.';
  }
  return detailOf(error) ?? 'The run could not be completed. Try again in a moment.';
}

export interface QueryRunOptions {
  /** The server refused the tree (a 400 naming a rule): returns true when the builder showed it on the rule. */
  onTreeRefused?: (detail: string) => boolean;
}

/**
 * Runs the query in the editor and gives its latest result. Mount it again (a new React key)
 * when another query is opened, so results never belong to a different query. A failed run keeps
 * the last result, and says why it failed.
 */
export function useQueryRun({ onTreeRefused }: QueryRunOptions = {}): QueryRun {
  const { queryId, query, isQueryEdited } = useAppSelector(selectDataExplorer);
  const [executeAnonymous, anonymous] = useExecuteAnonymousQueryMutation();
  const [executeSaved, started] = useExecuteQueryMutation();
  const [tracked, setTracked] = useState<{ queryId: string; queryExecutionId: string } | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [hasRun, setHasRun] = useState(false);
  // The tree of the run under way: the result, when it comes, answers it.
  const runTree = useRef<QueryGroup>(query);

  const execution = useGetQueryExecutionQuery(tracked ?? skipToken, { pollingInterval: tracked ? EXECUTION_POLL_MS : 0 });
  const latest = useGetLatestQueryExecutionQuery(queryId && !hasRun ? queryId : skipToken);

  // The saved query's last execution, until this page runs it.
  useEffect(() => {
    if (hasRun || !latest.data) return;
    if (latest.data.status === 'SUCCEEDED' && latest.data.result) {
      const { result, finished_at: finishedAt, created_at: createdAt, id } = latest.data;
      // The saved query's tree as opened (later edits in the builder do not change what it answered).
      setShown((before) => before ?? { result, at: finishedAt ?? createdAt, executionId: id, query: withoutIds(query) });
      setFailure(null);
    } else if (latest.data.status === 'FAILED') {
      setFailure(latest.data.error ?? 'The run failed.');
    }
  }, [hasRun, latest.data, query]);

  // The tracked job: its end, or the API lost while polling it.
  useEffect(() => {
    if (!tracked) return;
    const current = execution.data?.id === tracked.queryExecutionId ? execution.data : undefined;
    if (current && isFinished(current)) {
      if (current.status === 'SUCCEEDED' && current.result) {
        setShown({ result: current.result, at: current.finished_at ?? new Date().toISOString(), executionId: current.id, query: runTree.current });
        setFailure(null);
      } else {
        setFailure(current.error ?? 'The run failed.');
      }
      setTracked(null);
    } else if (execution.isError) {
      setFailure(runFailureReason(execution.error));
      setTracked(null);
    }
  }, [tracked, execution.data, execution.isError, execution.error]);

  const refused = (error: FetchBaseQueryError | SerializedError) => {
    const detail = detailOf(error);
    const status = 'status' in error ? error.status : undefined;
    if (status === 400 && detail && onTreeRefused?.(detail)) return 'A rule needs fixing: see the highlighted rule.';
    return runFailureReason(error);
  };

  const run = () => {
    setHasRun(true);
    runTree.current = withoutIds(query);
    if (queryId && !isQueryEdited) {
      setTracked(null);
      executeSaved(queryId)
        .unwrap()
        .then((job) => setTracked({ queryId, queryExecutionId: job.id }))
        .catch((error: FetchBaseQueryError | SerializedError) => setFailure(refused(error)));
    } else {
      const tree = runTree.current;
      executeAnonymous(tree)
        .unwrap()
        .then((result) => {
          setShown({ result, at: new Date().toISOString(), executionId: null, query: tree });
          setFailure(null);
        })
        .catch((error: FetchBaseQueryError | SerializedError) => setFailure(refused(error)));
    }
  };

  const isRunning = anonymous.isLoading || started.isLoading || tracked !== null;
  const current = tracked && execution.data?.id === tracked.queryExecutionId ? execution.data : undefined;
  const latestError = latest.error as FetchBaseQueryError | undefined;
  return {
    run,
    isRunning,
    status: tracked || started.isLoading ? (current?.status ?? 'PENDING') : null,
    result: shown?.result ?? null,
    resultAt: shown?.at ?? null,
    error: isRunning ? null : failure,
    executionId: shown?.executionId ?? null,
    isNotRunYet: !hasRun && latestError?.status === 404 && detailOf(latestError) === QUERY_NOT_EXECUTED,
    resultQuery: shown?.query ?? null,
  };
}
