import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SIGNATURE_HEADER } from '@hdp/contract/client-address';
import { browserAddress, clientAddressHeaders } from '../auth/client-address';

/** Request headers that describe one hop and must not be forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);
/**
 * What the browser gets of a service other than the API's answer: how to read the body, nothing
 * else. Above all no `Set-Cookie`: a third party must not set cookies on the app's own origin.
 */
const FROM_SERVICES = new Set(['content-type', 'content-length', 'content-encoding', 'cache-control']);
/** Only this server may name the browser's address: a browser's own claim is dropped. */
const NOT_FROM_BROWSER = new Set([...HOP_BY_HOP, CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SIGNATURE_HEADER]);

export interface ForwardOptions {
  apiBaseUrl: string;
  /** Signs the browser's address for the API (CLIENT_ADDRESS_SECRET). */
  clientAddressSecret?: string;
  trustProxy?: boolean;
  /** The path and query to ask for at the target (default: the request's own). */
  path?: string;
  /**
   * For a service other than the API (analytics, error reporting): only these request headers go
   * out, and no client address, so the service gets no cookie, token or address; and only the
   * headers that describe the body come back (FROM_SERVICES).
   */
  onlyHeaders?: ReadonlySet<string>;
  /** The detail of the 502 when the target does not answer. */
  unreachable?: string;
}

/**
 * Forwards one request to the API unchanged (method, path with its trailing slash, query,
 * headers, streamed body) and streams the answer back. The API's address is read at run time,
 * which Next.js `rewrites` cannot do (they are fixed at build time).
 */
export function forwardToApi(req: IncomingMessage, res: ServerResponse, options: ForwardOptions): Promise<void> {
  const target = new URL(options.path ?? req.url ?? '/', options.apiBaseUrl);
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (NOT_FROM_BROWSER.has(name) || value === undefined) continue;
    if (!options.onlyHeaders || options.onlyHeaders.has(name)) headers[name] = value;
  }
  if (!options.onlyHeaders) {
    Object.assign(headers, clientAddressHeaders(options.clientAddressSecret, browserAddress(req, options.trustProxy ?? false)));
    const remote = req.socket.remoteAddress;
    if (remote) headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${String(req.headers['x-forwarded-for'])}, ${remote}` : remote;
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  }

  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const upstream = client.request(target, { method: req.method, headers }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (HOP_BY_HOP.has(name) || value === undefined) continue;
        if (!options.onlyHeaders || FROM_SERVICES.has(name)) out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('end', resolve);
      answer.on('error', () => {
        res.destroy();
        resolve();
      });
    });
    upstream.on('error', () => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: options.unreachable ?? 'The API is not reachable.' }));
      } else {
        res.destroy();
      }
      resolve();
    });
    req.pipe(upstream);
  });
}
