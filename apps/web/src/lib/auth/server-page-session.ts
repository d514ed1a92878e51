import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import type { NextApiRequest, NextApiResponse } from 'next';
import { getServerSession, type Session } from 'next-auth';
import { Me, ROUTES } from '@hdp/contract';
import { makeStore } from '@/app/store';
import { runPageQueries, type InitialQueryEntry, type PageQueries } from '@/lib/api/server-queries';
import { browserSharesTimeZone } from '@/lib/dates/time-zone';
import { buildAuthOptions } from './auth-options';
import { browserAddress, clientAddressHeaders } from './client-address';
import { assertSessionSecret, readServerEnv } from './server-env';

/** Past this, the page is sent without the user (or the data) and the browser asks for them, as without this step. */
const SERVER_READ_TIMEOUT_MS = 2_000;

// Built once, as the auth route builds its handler: every protected page's request needs them.
let authOptions: ReturnType<typeof buildAuthOptions> | undefined;

export interface PageSession {
  /** The signed-in session (null: signed out), for next-auth's provider: the browser need not ask for it. */
  session: Session | null;
  /** The signed-in user, for the shell's first render. */
  me?: Me;
  /** The page's first data (its list's first page, the record it shows), for the store's cache. */
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
 * known; the answers (the user's among them) start the browser's store. Read-only: every call is the
 * API's own, authorised as the browser's would be, and the browser's later calls are as before.
 */
export async function readPageSession(req: IncomingMessage, res: ServerResponse, { withUser = true, queries, query = {} }: PageSessionOptions = {}): Promise<PageSession> {
  assertSessionSecret();
  const found = await getServerSession(req as NextApiRequest, res as NextApiResponse, (authOptions ??= buildAuthOptions()));
  // Plain data only: undefined fields do not serialise into the page.
  const session = found ? (JSON.parse(JSON.stringify(found)) as Session) : null;
  if (!withUser || !session?.idToken || session.error) return { session };
  const { apiInternalUrl, clientAddressSecret, trustProxy } = readServerEnv();
  const serverApi = { baseUrl: apiInternalUrl, headers: clientAddressHeaders(clientAddressSecret, browserAddress(req, trustProxy)) };
  // Dates in the data are written in the time zone of whoever renders them: the server renders the
  // data only for a browser in its own zone, so that the browser takes over the very same page.
  const me = await readMe(session.idToken, serverApi);
  if (!me) return { session };
  // The user goes into the browser's store too: the components that ask for them find them there,
  // on the server and in the browser alike, and the browser need not ask again.
  const meEntry: InitialQueryEntry = { endpointName: 'getMe', arg: undefined, value: me };
  const pageQueries = queries && browserSharesTimeZone(req.headers.cookie) ? queries({ query, me }) : [];
  if (pageQueries.length === 0) return { session, me, initialQueries: [meEntry] };
  const store = makeStore({ auth: { idToken: session.idToken } }, { serverApi });
  const pageEntries = await runPageQueries(store, pageQueries, SERVER_READ_TIMEOUT_MS).catch(() => []);
  return { session, me, initialQueries: [meEntry, ...pageEntries] };
}

async function readMe(idToken: string, serverApi: { baseUrl: string; headers: Record<string, string> }): Promise<Me | undefined> {
  try {
    const answer = await fetch(`${serverApi.baseUrl}${ROUTES.getMe.path}`, {
      headers: { authorization: `Bearer ${idToken}`, ...serverApi.headers },
      signal: AbortSignal.timeout(SERVER_READ_TIMEOUT_MS),
    });
    if (!answer.ok) return undefined;
    const me = Me.safeParse(await answer.json());
    return me.success ? me.data : undefined;
  } catch {
    // The API is down or slow: the page renders as before and the browser reports what is wrong.
    return undefined;
  }
}
