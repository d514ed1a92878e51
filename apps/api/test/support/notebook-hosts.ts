import dns from 'node:dns';
import type { NotebookOpen } from '@hdp/contract';

/**
 * Every notebook has its own host, `<id>.notebooks.localhost`. Browsers resolve any name under
 * `localhost` to the loopback address (RFC 6761 §6.3); Node asks the system resolver, which
 * knows only `localhost` itself. The tests' HTTP and WebSocket clients resolve the way a browser
 * does, through this.
 */
let installed = false;
export function resolveLocalhostSubdomains(): void {
  if (installed) return;
  installed = true;
  const original = dns.lookup;
  const lookup = function (this: unknown, hostname: string, ...rest: unknown[]) {
    const name = typeof hostname === 'string' && hostname.toLowerCase().endsWith('.localhost') ? 'localhost' : hostname;
    return (original as (...args: unknown[]) => unknown).call(this, name, ...rest);
  };
  (dns as { lookup: unknown }).lookup = lookup;
}

/** A notebook's own origin on a test API listening on `apiOrigin` (`http://127.0.0.1:<port>`). */
export function notebookOrigin(apiOrigin: string, notebookId: string): string {
  return `http://${notebookId}.notebooks.localhost:${new URL(apiOrigin).port}`;
}

/** `http://<id>.notebooks.localhost:<port>/jupyter/<id>/` on a test API. */
export function notebookBase(apiOrigin: string, notebookId: string): string {
  return `${notebookOrigin(apiOrigin, notebookId)}/jupyter/${notebookId}/`;
}

/** The web app's origin of the test API's configuration (WEB_URL's default). */
export const TEST_WEB_ORIGIN = 'http://localhost:3000';

/**
 * Redeems an open call's ticket as the web app's page does (a form POSTed from its origin) at
 * the test API's port, and answers the session cookie (`name=value`).
 */
export async function redeemOpen(apiOrigin: string, opened: Pick<NotebookOpen, 'url' | 'ticket'>, init: { origin?: string } = {}): Promise<Response> {
  resolveLocalhostSubdomains();
  const url = new URL(opened.url);
  url.port = new URL(apiOrigin).port;
  return fetch(url, {
    method: 'POST',
    headers: { origin: init.origin ?? TEST_WEB_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ticket: opened.ticket }).toString(),
    redirect: 'manual',
  });
}

/** The session cookie of a redeemed open (throws if none was set). */
export async function openedCookie(apiOrigin: string, opened: Pick<NotebookOpen, 'url' | 'ticket'>): Promise<string> {
  const answer = await redeemOpen(apiOrigin, opened);
  const cookie = answer.headers.get('set-cookie');
  if (answer.status !== 200 || !cookie) throw new Error(`open refused: ${answer.status} ${await answer.text()}`);
  return cookie.split(';')[0]!;
}
