import { useEffect, useRef, useState } from 'react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { QueryGroup, QueryResult } from '@hdp/contract';
import { useExecuteAnonymousQueryMutation } from '../api/executions';
import { runFailureReason } from '../hooks/use-query-run';

/** How long the definition must stay unchanged before it is counted: typing a number is one run, not one per key. */
export const LIVE_COUNT_DELAY_MS = 900;

export type LiveCountStatus =
  /** The definition changed: a count is about to be asked for, or is being counted. */
  | 'loading'
  /** The counts shown are those of the definition as it stands. */
  | 'current'
  /** The last count failed; `error` says why. */
  | 'failed'
  /** The definition cannot be counted as it stands; `error` says why. */
  | 'incomplete';

export interface LiveCounts {
  status: LiveCountStatus;
  /** The last result counted; `stale` when it answers an earlier version of the definition. */
  result: QueryResult | null;
  stale: boolean;
  /** Why the count failed or cannot be made. */
  error: string | null;
  /** The run was refused by the per-user query limits. */
  refusedByLimits: boolean;
  /** The result's attrition is that of the definition it answers (see `attritionMatches`). */
  attritionMatches: boolean;
}

/**
 * Counts the query (with its cohort definition) as it is being edited: debounced calls to the
 * anonymous execute route, which count against the per-user query limits like any run. A result
 * is kept with the tree it answers, so a count of an older version is never shown as current.
 */
export function useLiveCounts(tree: QueryGroup, problem: string | null, matches: (result: QueryResult, tree: QueryGroup) => boolean): LiveCounts {
  const key = JSON.stringify(tree);
  const [execute] = useExecuteAnonymousQueryMutation();
  const [answer, setAnswer] = useState<{ key: string; result: QueryResult } | null>(null);
  const [failure, setFailure] = useState<{ key: string; message: string; limits: boolean } | null>(null);
  const [inFlight, setInFlight] = useState<string | null>(null);
  // The latest tree asked for: an answer to any other arrives too late and is dropped.
  const latest = useRef<string | null>(null);

  useEffect(() => {
    if (problem) return undefined;
    if (answer?.key === key || failure?.key === key) return undefined;
    const timer = setTimeout(() => {
      latest.current = key;
      setInFlight(key);
      execute(JSON.parse(key) as QueryGroup)
        .unwrap()
        .then((result) => {
          if (latest.current !== key) return;
          setAnswer({ key, result });
          setFailure(null);
        })
        .catch((error: FetchBaseQueryError | SerializedError) => {
          if (latest.current !== key) return;
          const limits = 'status' in error && error.status === 429;
          setFailure({ key, message: runFailureReason(error), limits });
        })
        .finally(() => setInFlight((now) => (now === key ? null : now)));
    }, LIVE_COUNT_DELAY_MS);
    return () => clearTimeout(timer);
    // `answer` and `failure` are read to skip a tree already answered; a change of them alone asks nothing new.
  }, [key, problem, execute]);

  const stale = answer !== null && answer.key !== key;
  const base = { result: answer?.result ?? null, stale, attritionMatches: answer ? matches(answer.result, JSON.parse(answer.key) as QueryGroup) : false };
  if (problem) return { ...base, status: 'incomplete', error: problem, refusedByLimits: false };
  if (failure?.key === key && inFlight !== key) return { ...base, status: 'failed', error: failure.message, refusedByLimits: failure.limits };
  if (answer && !stale) return { ...base, status: 'current', error: null, refusedByLimits: false };
  return { ...base, status: 'loading', error: null, refusedByLimits: false };
}
