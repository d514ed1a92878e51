import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { MfaMethod } from '@hdp/contract';

/**
 * Between the password and the second factor, the browser holds the API's challenge in an
 * HttpOnly cookie: the page's scripts never see it, and it lives no longer than the challenge.
 * The second-step page and its server routes read it; `authorize` answers it.
 */
export interface PendingSecondStep {
  challenge: string;
  methods: MfaMethod[];
  enrolmentRequired: boolean;
  /** Where the person goes once signed in (a path of this web app). */
  callbackUrl: string;
  /** Epoch milliseconds after which the API no longer takes the challenge. */
  expiresAt: number;
}

const COOKIE = 'hdp.second-step';

/** The cookie's name: `__Host-` prefixed when the web app is served over HTTPS. */
export function pendingCookieName(secure: boolean): string {
  return secure ? `__Host-${COOKIE}` : COOKIE;
}

/** Only a path on this web app: anything else (another origin, `//host`) becomes `/`. */
export function safeCallbackPath(callbackUrl: unknown, publicUrl?: string): string {
  if (typeof callbackUrl !== 'string' || !callbackUrl) return '/';
  try {
    const base = new URL(publicUrl ?? 'http://web.local');
    const url = new URL(callbackUrl, base);
    if (url.origin !== base.origin) return '/';
    return `${url.pathname}${url.search}${url.hash}` || '/';
  } catch {
    return '/';
  }
}

/** The Set-Cookie header that stores a pending second step (or, with null, removes it). */
export function pendingCookieHeader(pending: PendingSecondStep | null, secure: boolean): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  if (!pending) return [`${pendingCookieName(secure)}=`, 'Max-Age=0', ...attributes].join('; ');
  const value = Buffer.from(JSON.stringify(pending)).toString('base64url');
  const maxAge = Math.max(0, Math.floor((pending.expiresAt - Date.now()) / 1000));
  return [`${pendingCookieName(secure)}=${value}`, `Max-Age=${maxAge}`, ...attributes].join('; ');
}

/** The pending second step in the request's cookies; undefined when absent, malformed or expired. */
export function readPendingSecondStep(headers: IncomingHttpHeaders | Record<string, unknown> | undefined, secure: boolean): PendingSecondStep | undefined {
  const cookieHeader = headers?.cookie;
  if (typeof cookieHeader !== 'string') return undefined;
  const name = pendingCookieName(secure);
  const raw = cookieHeader
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1);
  if (!raw) return undefined;
  try {
    const pending = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as PendingSecondStep;
    if (typeof pending.challenge !== 'string' || !Array.isArray(pending.methods) || typeof pending.expiresAt !== 'number') return undefined;
    return pending.expiresAt > Date.now() ? pending : undefined;
  } catch {
    return undefined;
  }
}

/**
 * next-auth's `authorize` sees the request but not the response: the auth route runs next-auth
 * inside this store, so that `authorize` can set or clear the cookie on the answer it is part of.
 */
const responses = new AsyncLocalStorage<ServerResponse>();

export function withAuthResponse<T>(res: ServerResponse, run: () => T): T {
  return responses.run(res, run);
}

/** Adds a Set-Cookie header to the answer of the auth request under way (next-auth appends its own after). */
export function setCookieOnAuthResponse(header: string): void {
  const res = responses.getStore();
  if (!res || res.headersSent) return;
  const existing = res.getHeader('Set-Cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader('Set-Cookie', [...list, header]);
}
