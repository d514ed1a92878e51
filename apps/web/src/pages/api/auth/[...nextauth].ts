import type { NextApiRequest, NextApiResponse } from 'next';
import NextAuth from 'next-auth';
import { buildAuthOptions } from '@/lib/auth/auth-options';
import { brandAuthPage } from '@/lib/auth/brand-auth-page';
import { stampBrowserAddress } from '@/lib/auth/client-address';
import { assertSessionSecret, readServerEnv } from '@/lib/auth/server-env';
import { NONCE_HEADER } from '@/lib/security/page-security-headers';

let handler: ((req: NextApiRequest, res: NextApiResponse) => unknown) | undefined;

/** next-auth's routes. Built on the first request, so that `next build` needs no secret. */
export default function auth(req: NextApiRequest, res: NextApiResponse) {
  if (!handler) assertSessionSecret();
  const ready = (handler ??= NextAuth(buildAuthOptions()));
  // The credentials provider passes this address on, so the API throttles each browser apart.
  stampBrowserAddress(req, readServerEnv().trustProxy);
  if (req.method === 'GET' && req.url?.split('?')[0]?.endsWith('/signin')) {
    // The built-in sign-in page is kept (pages.signIn unset) and dressed as the product.
    const send = res.send.bind(res);
    const nonce = req.headers[NONCE_HEADER];
    const error = new URL(req.url ?? '/', 'http://web.local').searchParams.get('error');
    res.send = (body: unknown) => send(typeof body === 'string' ? brandAuthPage(body, typeof nonce === 'string' ? nonce : undefined, error) : body);
  }
  return ready(req, res);
}
