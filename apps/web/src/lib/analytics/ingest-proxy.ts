import type { IncomingMessage, ServerResponse } from 'node:http';
import { forwardToApi } from '@/lib/api/forward-to-api';

/**
 * What reaches the analytics service: the body posthog-js sends (already free of personal data)
 * and the headers needed to read it. Never the session cookie, a bearer token or the user's
 * address: PostHog sees the web server as the sender.
 */
const INGEST_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-encoding', 'accept', 'accept-encoding', 'user-agent']);

/** POSTHOG_HOST, read at run time; unset means analytics has nowhere to go. */
export function postHogHost(env: NodeJS.ProcessEnv = process.env): string | null {
  const host = env.POSTHOG_HOST?.trim();
  return host ? host.replace(/\/+$/, '') : null;
}

/**
 * Forwards `/api/ingest/<path>` (the app's own origin, so ad blockers and CSP stay simple) to
 * `<POSTHOG_HOST>/<path>`, streaming both ways. Without POSTHOG_HOST it answers 404.
 */
export function forwardToPostHog(req: IncomingMessage, res: ServerResponse, host: string | null = postHogHost()): Promise<void> {
  if (!host) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Analytics is not configured (POSTHOG_HOST).' }));
    return Promise.resolve();
  }
  const url = req.url ?? '/';
  const path = url.replace(/^\/(api\/)?ingest(?=\/|\?|$)/, '') || '/';
  const base = new URL(host);
  return forwardToApi(req, res, {
    apiBaseUrl: base.origin,
    path: `${base.pathname.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`,
    onlyHeaders: INGEST_HEADERS,
    unreachable: 'The analytics service is not reachable.',
  });
}
