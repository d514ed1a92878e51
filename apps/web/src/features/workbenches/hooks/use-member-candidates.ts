import { useMemo } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import type { Me, Role } from '@hdp/contract';
import { LIMITS } from '@hdp/contract/limits';
import { useListCohortsQuery } from '@/features/cohorts/api/list-cohorts';
import { useListUsersQuery } from '@/features/users/api/list-users';

/** A person who can be added to a workbench. */
export interface MemberCandidate {
  id: string;
  email: string;
  name: string | null;
}

/** Roles that work with data: only their holders can be members. */
export const DATA_ROLES: Role[] = ['ADMIN', 'DATA_STEWARD', 'RESEARCHER'];

/** How many candidates the picker offers at once. */
export const CANDIDATE_LIMIT = 10;

const matches = (search: string) => (person: MemberCandidate) =>
  !search || person.email.toLowerCase().includes(search) || (person.name ?? '').toLowerCase().includes(search);

/**
 * Who can be added as a member, for a search text. An administrator (who may list users) searches
 * every ACTIVE holder of a data role. Anyone else cannot list users, so the candidates are the
 * people their data already names: the authors and publishers of published cohorts. The API checks
 * every member it is sent (ACTIVE, a data role) and refuses the others with a 418.
 */
export function useMemberCandidates(me: Me, search: string) {
  const canListUsers = me.permissions.includes('users:list');
  const needle = search.trim().toLowerCase();
  const users = useListUsersQuery(
    canListUsers ? { skip: 0, limit: CANDIDATE_LIMIT, status: ['ACTIVE'], roles: DATA_ROLES, ...(needle ? { search: needle } : {}) } : skipToken,
  );
  const cohorts = useListCohortsQuery(canListUsers ? skipToken : { skip: 0, limit: LIMITS.maxPageSize, status: 'PUBLISHED', order_by: '-updated_at' });

  const candidates = useMemo<MemberCandidate[]>(() => {
    if (canListUsers) return (users.data?.users ?? []).map((user) => ({ id: user.id, email: user.email, name: user.name }));
    const known = new Map<string, MemberCandidate>();
    for (const cohort of cohorts.data?.cohorts ?? []) {
      for (const person of [cohort.author, cohort.published_by]) {
        if (person?.email && !known.has(person.id)) known.set(person.id, { id: person.id, email: person.email, name: null });
      }
    }
    return [...known.values()].filter(matches(needle)).slice(0, CANDIDATE_LIMIT);
  }, [canListUsers, users.data, cohorts.data, needle]);

  const source = canListUsers ? users : cohorts;
  return { candidates, canListUsers, isFetching: source.isFetching, isError: source.isError };
}
