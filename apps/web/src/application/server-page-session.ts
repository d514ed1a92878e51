import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import type { NextApiRequest, NextApiResponse } from 'next';
import { getServerSession, type Session } from 'next-auth';
import type { Me } from '@hdp/contract';
import { getMeApi } from '@/features/users/api/get-me';
import { runPageQueries, type InitialQueryEntry, type PageQueries } from '@/lib/api/server-queries';
import { buildAuthOptions } from '@/lib/auth/auth-options';
import { browserAddress, clientAddressHeaders } from '@/lib/auth/client-address';
import { assertSessionSecret, readServerEnv } from '@/lib/auth/server-env';
import { browserSharesTimeZone } from '@/lib/dates/time-zone';
import { makeStore } from './store';

/** Past this, the page is sent without the user (or the data) and the browser asks for them, as without this step. */
const SERVER_READ_TIMEOUT_MS = 2_000;

// Built once, as the auth route builds its handler: every protected page's request needs them.
let authOptions: ReturnType<typeof buildAuthOptions> | undefined;

export interface PageSession {
  /** The signed-in session (null: signed out), for next-auth's provider: the browser need not ask for it. */
  session: Session | null;
  /** The answers the page is rendered with, for the browser's store: the user's, and the page's first data. */
  initialQueries?: InitialQueryEntry[];
}

export interface PageSessionOptions {
  /** Read the signed-in user too (protected pages). */
  withUser?: boolean;
  /** The page's first queries (`AppPage.initialQueries`), read once the user is known. */
  queries?: PageQueries;
  /** The address's query (its path parameters included), for `queries`. */
  query?: ParsedUrlQuery;
}

/**
 * What a protected page is rendered with on the server: the session and the user it belongs to.
 * With them the first HTML already holds the header, the side bar and the page's own frame, where
 * it would otherwise hold a spinner until the browser had asked for the session and then for the
 * user, one after the other. `withUser: false` reads the session alone (a public page whose content
 * depends on it). With `queries`, the page's first data is read too, as the user, once the user is
 * known. Everything is read through a store of the server's own (the same endpoints as the
 * browser's, sent to the API's internal address), whose answers start the browser's store.
 * Read-only: every call is authorised by the API as the browser's would be.
 */
export async function readPageSession(req: IncomingMessage, res: ServerResponse, { withUser = true, queries, query = {} }: PageSessionOptions = {}): Promise<PageSession> {
  assertSessionSecret();
  const found = await getServerSession(req as NextApiRequest, res as NextApiResponse, (authOptions ??= buildAuthOptions()));
  // Plain data only: undefined fields do not serialise into the page.
  const session = found ? (JSON.parse(JSON.stringify(found)) as Session) : null;
  if (!withUser || !session?.idToken || session.error) return { session };
  const { apiInternalUrl, clientAddressSecret, trustProxy } = readServerEnv();
  const serverApi = { baseUrl: apiInternalUrl, headers: clientAddressHeaders(clientAddressSecret, browserAddress(req, trustProxy)) };
  const store = makeStore({ auth: { idToken: session.idToken } }, { serverApi });
  // Should the API be down or slow, the page renders as before and the browser reports what is wrong.
  const withMe = await runPageQueries(store, [getMeApi.endpoints.getMe.initiate()], SERVER_READ_TIMEOUT_MS).catch(() => []);
  const me = withMe.find((entry) => entry.endpointName === 'getMe')?.value as Me | undefined;
  if (!me) return { session };
  // Dates in the data are written in the time zone of whoever renders them: the server renders the
  // data only for a browser in its own zone, so that the browser takes over the very same page.
  const pageQueries = queries && browserSharesTimeZone(req.headers.cookie) ? queries({ query, me }) : [];
  if (pageQueries.length === 0) return { session, initialQueries: withMe };
  // The store's answers so far (the user's) come back with the page's.
  return { session, initialQueries: await runPageQueries(store, pageQueries, SERVER_READ_TIMEOUT_MS).catch(() => withMe) };
}
