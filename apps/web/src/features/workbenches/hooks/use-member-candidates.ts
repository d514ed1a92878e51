import { useEffect, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { LIMITS } from '@hdp/contract/limits';
import { useSearchUserDirectoryQuery } from '@/features/users/api/search-user-directory';

/** A person who can be added to a workbench. */
export interface MemberCandidate {
  id: string;
  email: string;
  name: string | null;
}

/** How many candidates the picker offers at once. */
export const CANDIDATE_LIMIT = 10;

/** How long typing must pause before the directory is asked, in milliseconds. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The value, once it has stopped changing for `delayMs`. */
function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * Who can be added as a member, for a search text: the member directory's answer (ACTIVE users
 * holding a data role, the people the API accepts as members), the same for everyone. The directory
 * is asked once typing pauses and the text is long enough; until then nothing is offered, never the
 * answer to an earlier text.
 */
export function useMemberCandidates(search: string) {
  const needle = search.trim();
  const settled = useSettled(needle, SEARCH_DEBOUNCE_MS);
  const asking = settled.length >= LIMITS.directorySearchMinLength;
  const directory = useSearchUserDirectoryQuery(asking ? { search: settled, limit: CANDIDATE_LIMIT } : skipToken);
  const current = asking && settled === needle ? directory.currentData : undefined;
  return {
    candidates: current?.users ?? [],
    /** More people matched than are offered: a longer text narrows them down. */
    more: current?.more ?? false,
    tooShort: needle.length < LIMITS.directorySearchMinLength,
    isFetching: needle !== settled || directory.isFetching,
    isError: asking && directory.isError,
  };
}
