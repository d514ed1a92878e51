import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, newNonce, notebookBaseUrl, NONCE_HEADER, transportSecurityHeader } from '@/lib/security/page-security-headers';

/**
 * Every page and next-auth route gets a fresh nonce and the Content-Security-Policy built on it.
 * The nonce travels to `_document` (and next-auth's sign-in page) in a request header, replacing
 * any the browser sent.
 */
export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const policy = contentSecurityPolicy({
    nonce,
    development: process.env.NODE_ENV === 'development',
    apiBaseUrl: process.env.NEXT_PUBLIC_API_BASE_URL,
    oidcIssuer: process.env.OIDC_ISSUER,
    notebookBaseUrl: notebookBaseUrl({
      NOTEBOOK_BASE_URL: process.env.NOTEBOOK_BASE_URL,
      API_INTERNAL_URL: process.env.API_INTERNAL_URL,
      NEXT_PUBLIC_API_BASE_URL: process.env.NEXT_PUBLIC_API_BASE_URL,
    }),
  });
  const headers = new Headers(request.headers);
  headers.set(NONCE_HEADER, nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  const hsts = transportSecurityHeader(process.env.NEXTAUTH_URL);
  if (hsts) response.headers.set('Strict-Transport-Security', hsts);
  return response;
}

export const config = {
  // Not the API's answers (/api/v1/*, which carry the API's own headers) and not build output.
  matcher: ['/((?!api/v1/|_next/static/|_next/image).*)'],
};
