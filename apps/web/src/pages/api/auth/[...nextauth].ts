import type { NextApiRequest, NextApiResponse } from 'next';
import NextAuth from 'next-auth';
import { buildAuthOptions } from '@/lib/auth/auth-options';
import { brandAuthPage } from '@/lib/auth/brand-auth-page';
import { stampBrowserAddress } from '@/lib/auth/client-address';
import { withAuthResponse } from '@/lib/auth/pending-second-step';
import { SECOND_STEP_PATH } from '@/lib/auth/sign-in-urls';
import { assertSessionSecret, readServerEnv } from '@/lib/auth/server-env';
import { NONCE_HEADER } from '@/lib/security/page-security-headers';

let handler: ((req: NextApiRequest, res: NextApiResponse) => unknown) | undefined;

/** next-auth's routes. Built on the first request, so that `next build` needs no secret. */
export default function auth(req: NextApiRequest, res: NextApiResponse) {
  if (!handler) assertSessionSecret();
  const ready = (handler ??= NextAuth(buildAuthOptions()));
  // The credentials provider passes this address on, so the API throttles each browser apart.
  const env = readServerEnv();
  stampBrowserAddress(req, env.trustProxy);
  const path = req.url?.split('?')[0] ?? '';
  const query = new URL(req.url ?? '/', 'http://web.local').searchParams;
  if (req.method === 'GET' && path.endsWith('/error') && query.get('error') === 'SecondFactorRequired') {
    // The password was right: the second factor is asked for on a page of its own.
    res.redirect(302, SECOND_STEP_PATH);
    return;
  }
  if (req.method === 'GET' && path.endsWith('/signin')) {
    // The built-in sign-in page is kept (pages.signIn unset) and dressed as the product.
    const send = res.send.bind(res);
    const nonce = req.headers[NONCE_HEADER];
    const error = query.get('error');
    res.send = (body: unknown) =>
      send(typeof body === 'string' ? brandAuthPage(body, typeof nonce === 'string' ? nonce : undefined, error, { mfaRequired: env.mfaRequired }) : body);
  }
  // `authorize` sets the cookie of a pending second step on this answer.
  return withAuthResponse(res, () => ready(req, res));
}
