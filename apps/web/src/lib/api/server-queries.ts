import type { ParsedUrlQuery } from 'node:querystring';
import type { Me } from '@hdp/contract';
import type { AppDispatch, AppStore, RootState } from '@/app/store';
import type { StoreExtra } from './base-query';
import { baseApi } from './base-api';

/** A call to one of the API slice's queries (`someApi.endpoints.listUsers.initiate(args)`). */
export type PageQuery = (dispatch: AppDispatch, getState: () => RootState, extra: StoreExtra) => { abort(): void; unwrap(): Promise<unknown> };

/**
 * The queries a page shows first, for the address it was opened at and the signed-in user: the same
 * arguments its hooks will use, and only those the user's roles allow.
 */
export type PageQueries = (context: { query: ParsedUrlQuery; me: Me }) => PageQuery[];

/** One answer read on the server, handed to the browser's store so that its hooks find it there. */
export interface InitialQueryEntry {
  endpointName: string;
  arg: unknown;
  value: unknown;
}

/**
 * Runs a page's queries in a store made for the web server and gives the answers that arrived within
 * `timeoutMs`. What failed or is late is left out: the browser asks for it as it would have.
 */
export async function runPageQueries(store: AppStore, queries: PageQuery[], timeoutMs: number): Promise<InitialQueryEntry[]> {
  const running = queries.map((query) => store.dispatch(query));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.allSettled(running.map((call) => call.unwrap())), late]);
  clearTimeout(timer);
  for (const call of running) call.abort();
  return Object.values(store.getState()[baseApi.reducerPath].queries).flatMap((entry) =>
    entry?.status === 'fulfilled' ? [{ endpointName: entry.endpointName, arg: entry.originalArgs, value: entry.data }] : [],
  );
}

/** Puts the answers the server read into a new store, as if the store had asked for them itself. */
export function addInitialQueries(store: AppStore, entries: readonly InitialQueryEntry[] | undefined): void {
  if (!entries?.length) return;
  store.dispatch(baseApi.util.upsertQueryEntries(entries as Parameters<typeof baseApi.util.upsertQueryEntries>[0]));
}
