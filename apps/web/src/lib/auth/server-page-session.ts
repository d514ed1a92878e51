import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextApiRequest, NextApiResponse } from 'next';
import { getServerSession, type Session } from 'next-auth';
import { Me, ROUTES } from '@hdp/contract';
import { buildAuthOptions } from './auth-options';
import { browserAddress, clientAddressHeaders } from './client-address';
import { assertSessionSecret, readServerEnv } from './server-env';

/** Past this, the page is sent without the user and the browser asks for them, as without this step. */
const ME_TIMEOUT_MS = 2_000;

// Built once, as the auth route builds its handler: every protected page's request needs them.
let authOptions: ReturnType<typeof buildAuthOptions> | undefined;

export interface PageSession {
  /** The signed-in session (null: signed out), for next-auth's provider: the browser need not ask for it. */
  session: Session | null;
  /** The signed-in user, for the shell's first render. */
  me?: Me;
}

/**
 * What a protected page is rendered with on the server: the session and the user it belongs to.
 * With them the first HTML already holds the header, the side bar and the page's own frame, where
 * it would otherwise hold a spinner until the browser had asked for the session and then for the
 * user, one after the other. `withUser: false` reads the session alone (a public page whose content
 * depends on it). Read-only: the browser still reads the user again, and every call it makes is
 * authorised by the API as before.
 */
export async function readPageSession(req: IncomingMessage, res: ServerResponse, { withUser = true } = {}): Promise<PageSession> {
  assertSessionSecret();
  const found = await getServerSession(req as NextApiRequest, res as NextApiResponse, (authOptions ??= buildAuthOptions()));
  // Plain data only: undefined fields do not serialise into the page.
  const session = found ? (JSON.parse(JSON.stringify(found)) as Session) : null;
  if (!withUser || !session?.idToken || session.error) return { session };
  const { apiInternalUrl, clientAddressSecret, trustProxy } = readServerEnv();
  try {
    const answer = await fetch(`${apiInternalUrl}${ROUTES.getMe.path}`, {
      headers: { authorization: `Bearer ${session.idToken}`, ...clientAddressHeaders(clientAddressSecret, browserAddress(req, trustProxy)) },
      signal: AbortSignal.timeout(ME_TIMEOUT_MS),
    });
    if (!answer.ok) return { session };
    const me = Me.safeParse(await answer.json());
    return me.success ? { session, me: me.data } : { session };
  } catch {
    // The API is down or slow: the page renders as before and the browser reports what is wrong.
    return { session };
  }
}
