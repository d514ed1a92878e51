import type { IncomingMessage } from 'node:http';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SIGNATURE_HEADER, normaliseAddress, signClientAddress } from '@hdp/contract/client-address';

/**
 * The browser's address: the connection's, or under WEB_TRUST_PROXY the last X-Forwarded-For entry,
 * the one the proxy in front of the web app saw (earlier entries are whatever the browser sent).
 */
export function browserAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = req.headers['x-forwarded-for'];
  const last = trustProxy ? String(forwarded ?? '').split(',').at(-1)?.trim() : undefined;
  const address = last || req.socket.remoteAddress;
  return address ? normaliseAddress(address) : undefined;
}

/** The signed headers that tell the API the browser's address; none without a secret. */
export function clientAddressHeaders(secret: string | undefined, address: string | undefined): Record<string, string> {
  return secret && address ? signClientAddress(secret, address) : {};
}

/**
 * Puts the browser's address on the request for next-auth's `authorize`, which sees headers only.
 * Whatever the browser sent under these names is replaced first.
 */
export function stampBrowserAddress(req: IncomingMessage, trustProxy: boolean): void {
  delete req.headers[CLIENT_ADDRESS_SIGNATURE_HEADER];
  const address = browserAddress(req, trustProxy);
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete req.headers[CLIENT_ADDRESS_HEADER];
}

/** The stamped browser address, from the headers next-auth hands to `authorize`. */
export function stampedBrowserAddress(headers: Record<string, unknown> | undefined): string | undefined {
  const value = headers?.[CLIENT_ADDRESS_HEADER];
  return typeof value === 'string' ? value : undefined;
}
