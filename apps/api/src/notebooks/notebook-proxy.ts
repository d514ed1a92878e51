import type { IncomingMessage } from 'node:http';
import querystring from 'node:querystring';
import { Transform, type Duplex, type TransformCallback } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { WebSocket, WebSocketServer } from 'ws';
import type { NotebookUpstream } from './runtime/runtime-driver';
import { upstreamWebSocketAddress } from './runtime/notebook-socket';
import { DEFAULT_UPSTREAM_TIMEOUT_SECONDS } from './runtime/sandbox';
import type { NotebookSession, NotebookSessions } from './notebook-sessions';
import type { ProxyActivity } from './proxy-activity';
import type { ProxiedConnection, ProxyConnections } from './proxy-connections';
import { ApiError } from '../http/api-error';
import { classifyJupyterRequest } from './egress/jupyter-routes';
import { egressRefusalDetail, sendRefusal, TERMINALS_OFF_DETAIL } from './egress/egress-refusal';
import type { NotebookOrigins } from './notebook-origin';

/** Where notebooks are served: the proxy's public path and the Jupyter server's base URL alike. */
export const NOTEBOOK_PROXY_PREFIX = '/jupyter';
/**
 * The session cookie, host-only (no Domain attribute): sent to its own notebook's host and no
 * other. Over HTTPS it carries the `__Host-` prefix, so no sibling host can set one for it.
 */
export const NOTEBOOK_COOKIE = 'hdp_notebook';
export const SECURE_NOTEBOOK_COOKIE = `__Host-${NOTEBOOK_COOKIE}`;
/** The longest body of an open request (a form with one ticket). */
const OPEN_BODY_LIMIT = 2048;
/** Methods that change something: from a browser they must come from the notebook's own pages. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const NOTEBOOK_PATH = /^\/jupyter\/([A-Za-z0-9-]{1,64})\//;
/** The only WebSockets Jupyter offers through the proxy: a kernel's channels, and a terminal's when terminals are on. */
const KERNEL_SOCKET = /^api\/kernels\/[0-9a-f-]{36}\/channels(?:\?[^#]*)?$/;
const TERMINAL_SOCKET = /^terminals\/websocket\/[A-Za-z0-9_-]{1,64}(?:\?[^#]*)?$/;
const CLOSE_CODES_ALLOWED = (code: number) => code === 1000 || (code >= 3000 && code <= 4999);
/** A WebSocket closed because its user's access ended. */
const POLICY_VIOLATION = 1008;

/** The base path of one notebook. */
export function notebookBasePath(notebookId: string): string {
  return `${NOTEBOOK_PROXY_PREFIX}/${notebookId}/`;
}

/** A refused request of a notebook's browser session, for the audit trail (the path, never content). */
export interface RefusedRequest {
  session: NotebookSession;
  /** Jupyter's name for the route (`files`, `nbconvert`, `api/contents`, `terminals` …). */
  route: string;
  method: string;
  /** The path below the notebook's base, without the query. */
  path: string;
  clientAddress?: string;
  userAgent?: string;
}

/** An open (a ticket redeemed for a session) or its refusal, for the audit trail. */
export interface OpenAttempt {
  notebookId: string;
  /** The user the ticket was minted for, when the ticket was known. */
  userId?: string;
  workbenchId?: string;
  outcome: 'SUCCESS' | 'DENIED';
  /** Why it was refused: `ticket` (unknown, used or expired), `origin` (not sent from the web app's page), `method`. */
  reason?: 'ticket' | 'origin' | 'method';
  /** The page that sent the browser here (`Origin`), when any. */
  origin?: string;
  clientAddress?: string;
  userAgent?: string;
}

export interface NotebookProxyOptions {
  sessions: NotebookSessions;
  activity: ProxyActivity;
  connections: ProxyConnections;
  upstream: (notebookId: string) => NotebookUpstream | undefined;
  /**
   * Asked on every request with the session's user: may they still use this notebook? (Disabled,
   * removed from the workbench, held, notebook deleted.) The caller may cache its answer briefly;
   * `fresh` asks past any cache (the re-check of open WebSockets).
   */
  mayUse?: (session: NotebookSession, fresh?: boolean) => Promise<boolean>;
  /** Each notebook's own origin, and the notebook a Host names. */
  origins: NotebookOrigins;
  /** Origins whose pages may hand a ticket to a notebook (the web app's). */
  openerOrigins: string[];
  /** Told of every open and every refused one (the caller audits them). */
  onOpen?: (attempt: OpenAttempt) => void;
  /** How long Jupyter may take to answer a WebSocket handshake before the browser gets 504. */
  upstreamTimeoutMs?: number;
  /** Whether Jupyter's terminals are reachable (NOTEBOOK_TERMINALS; off by default). */
  terminals?: boolean;
  /** The web app's URL, named in the refusal of a download (where to request a release). */
  webUrl: string;
  /** Told of every route refused because it would hand a file to the browser (the caller audits it). */
  onEgressRefused?: (refused: RefusedRequest) => void;
  /** Told of the bytes of every answer and message that reaches the browser (the egress meter). */
  onEgress?: (session: NotebookSession, bytes: number) => void;
  /** How often open WebSockets are checked again against their session and the gate. */
  recheckMs?: number;
}

/** The value of one cookie in a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** The Cookie header without the platform's session cookie, which Jupyter has no use for. */
function withoutSessionCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const kept = header.split(';').filter((part) => part.split('=')[0]?.trim() !== name);
  return kept.length ? kept.join(';').trim() : undefined;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The form body of an open request, read up to a small limit. */
async function readOpenForm(body: unknown): Promise<URLSearchParams> {
  if (!body || typeof (body as AsyncIterable<Buffer>)[Symbol.asyncIterator] !== 'function') return new URLSearchParams();
  let text = '';
  for await (const chunk of body as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > OPEN_BODY_LIMIT) throw new ApiError(413, 'An open request holds one ticket and nothing else.');
  }
  return new URLSearchParams(text);
}

function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/html');
}

/**
 * Removes the Jupyter token from a page as it streams through, without holding the page: each
 * chunk is passed on but for its last bytes, which could be the start of a token split across
 * chunks. Bytes are handled as latin1, which maps each byte to one character and back unchanged,
 * so multi-byte UTF-8 characters split across chunks pass intact.
 */
export class TokenStripper extends Transform {
  private pending = '';
  private readonly keep: number;

  constructor(private readonly token: string) {
    super();
    this.keep = `?token=${token}`.length - 1;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = this.strip(this.pending + chunk.toString('latin1'));
    const cut = Math.max(0, text.length - this.keep);
    this.pending = text.slice(cut);
    done(null, Buffer.from(text.slice(0, cut), 'latin1'));
  }

  override _flush(done: TransformCallback): void {
    done(null, Buffer.from(this.strip(this.pending), 'latin1'));
  }

  private strip(text: string): string {
    return text.replaceAll(`?token=${this.token}`, '').replaceAll(this.token, '');
  }
}

const OPEN_REFUSED_DETAIL =
  'A notebook opens only from its workbench, by its creator: use Open on the Notebooks tab of the workbench. ' +
  'If someone sent you this link, do not use it; it would have opened their notebook, not yours.';

/** The length of a WebSocket message as `ws` hands it over. */
function messageBytes(data: Buffer | ArrayBuffer | Buffer[]): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data.byteLength;
}

function unixUrl(upstream: NotebookUpstream, requestUrl: string): string {
  return `unix+http://${querystring.escape(upstream.socketPath)}${requestUrl}`;
}

/**
 * The notebook proxy: HTTP through @fastify/reply-from and the kernel WebSockets through `ws`, to
 * the notebook's Unix socket, with `Host: localhost` and the Jupyter token added on the way. The
 * browser proves itself with the notebook's session cookie, set by the open URL. Only the routes
 * of Jupyter that cannot hand a file to the browser pass (egress/jupyter-routes.ts), and what
 * passes is counted (onEgress).
 */
export async function registerNotebookProxy(app: FastifyInstance, options: NotebookProxyOptions): Promise<void> {
  const { sessions, activity, connections, origins } = options;
  const terminals = options.terminals ?? false;
  const cookieName = origins.secure ? SECURE_NOTEBOOK_COOKIE : NOTEBOOK_COOKIE;

  /**
   * Host routing: a notebook is served only at its own host, and its host serves nothing else.
   * The old shared path on the API's origin (`<api>/jupyter/<id>/…`) is refused.
   */
  function refuseMisdirected(host: string | undefined, notebookId: string): void {
    if (origins.notebookIdOfHost(host) === notebookId) return;
    throw new ApiError(404, `Notebooks are served at their own address (${origins.originOf(notebookId)}${notebookBasePath(notebookId)}): open this one from its workbench.`);
  }

  /**
   * A request that changes something (a save, a new kernel) must come from the notebook's own
   * pages: a page of another notebook is same-site, so SameSite alone would let its forms and
   * fetches through with the cookie. Browsers send `Origin` with every such request.
   */
  function refuseForeignWrite(request: FastifyRequest, notebookId: string): void {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = headerText(request.headers.origin);
    const site = headerText(request.headers['sec-fetch-site']);
    if ((origin !== undefined && origin !== origins.originOf(notebookId)) || (origin === undefined && site !== undefined && site !== 'same-origin')) {
      throw new ApiError(403, "Only this notebook's own pages may change it.");
    }
  }

  async function admit(notebookId: string, cookieHeader: string | undefined): Promise<{ upstream: NotebookUpstream; session: NotebookSession; sessionId: string }> {
    const sessionId = cookieValue(cookieHeader, cookieName);
    const session = sessions.verify(sessionId, notebookId);
    if (!session || (options.mayUse && !(await options.mayUse(session)))) {
      throw new ApiError(401, 'Open this notebook from its workbench: this browser has no session for it.');
    }
    const upstream = options.upstream(notebookId);
    if (!upstream) throw new ApiError(503, 'The notebook is not running. Start it from its workbench.');
    activity.touch(notebookId);
    return { upstream, session, sessionId: sessionId! };
  }

  // A notebook's host serves that notebook and nothing else: not the API, not another notebook.
  app.addHook('onRequest', async (request) => {
    const hostNotebook = origins.notebookIdOfHost(request.headers.host);
    if (hostNotebook && !request.url.startsWith(notebookBasePath(hostNotebook))) {
      throw new ApiError(404, 'This address serves one notebook only.');
    }
  });

  await app.register(async (proxy) => {
    // Bodies pass through untouched (notebooks are saved as JSON larger than the API's body limit).
    proxy.removeAllContentTypeParsers();
    proxy.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    await proxy.register(replyFrom, { http: { requestOptions: { timeout: 120_000 } }, disableRequestLogging: true });

    const access = { public: true } as const;
    /**
     * The open flow's second half. The ticket is accepted only in a form POSTed by a page of the
     * web app (`Origin`), which asks for tickets only for its signed-in user and posts them into
     * the tab it opened: a link or a page elsewhere (another user's notebook included) cannot set
     * a session, so a ticket minted by one user never opens their notebook in another's browser.
     */
    proxy.post<{ Params: { notebookId: string } }>(
      `${NOTEBOOK_PROXY_PREFIX}/:notebookId/_open`,
      { config: { access }, schema: { hide: true } },
      async (request, reply) => {
        const { notebookId } = request.params;
        refuseMisdirected(request.headers.host, notebookId);
        const origin = headerText(request.headers.origin);
        const seen = {
          notebookId,
          origin,
          clientAddress: request.clientAddress,
          userAgent: headerText(request.headers['user-agent'])?.slice(0, 512),
        };
        const refuse = (reason: OpenAttempt['reason'], userId?: string, workbenchId?: string) => {
          options.onOpen?.({ ...seen, userId, workbenchId, outcome: 'DENIED', reason });
          return sendRefusal(request, reply, 403, 'This link does not open a notebook', OPEN_REFUSED_DETAIL);
        };
        const form = await readOpenForm(request.body);
        const ticket = form.get('ticket') ?? '';
        if (origin === undefined || !options.openerOrigins.includes(origin)) {
          // Spent, so that a ticket seen once elsewhere cannot be tried again.
          const spent = ticket ? sessions.discard(ticket, notebookId) : undefined;
          return refuse('origin', spent?.userId, spent?.workbenchId);
        }
        const redeemed = ticket ? sessions.redeem(ticket, notebookId) : undefined;
        if (!redeemed) return refuse('ticket');
        options.onOpen?.({ ...seen, userId: redeemed.session.userId, workbenchId: redeemed.session.workbenchId, outcome: 'SUCCESS' });
        const base = notebookBasePath(notebookId);
        const cookie = [
          `${cookieName}=${redeemed.sessionId}`,
          'Path=/',
          `Max-Age=${sessions.sessionTtlSeconds()}`,
          'HttpOnly',
          'SameSite=Strict',
          ...(origins.secure ? ['Secure'] : []),
        ].join('; ');
        // A page rather than a redirect: a Strict cookie set during a navigation that began on
        // another site is not sent on that navigation's redirect, but is on the page's own.
        const target = `${base}tree`;
        return reply
          .header('set-cookie', cookie)
          .header('referrer-policy', 'no-referrer')
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}">` +
              `<title>Opening notebook…</title></head><body><p><a href="${target}">Open the notebook</a></p></body></html>`,
          );
      },
    );
    // A link to the open URL (the old way, or one sent by someone else) sets nothing.
    proxy.get<{ Params: { notebookId: string } }>(
      `${NOTEBOOK_PROXY_PREFIX}/:notebookId/_open`,
      { config: { access }, schema: { hide: true } },
      async (request, reply) => {
        const { notebookId } = request.params;
        refuseMisdirected(request.headers.host, notebookId);
        options.onOpen?.({
          notebookId,
          outcome: 'DENIED',
          reason: 'method',
          origin: headerText(request.headers.origin),
          clientAddress: request.clientAddress,
          userAgent: headerText(request.headers['user-agent'])?.slice(0, 512),
        });
        return sendRefusal(request, reply, 403, 'This link does not open a notebook', OPEN_REFUSED_DETAIL);
      },
    );

    const forward = async (request: FastifyRequest<{ Params: { notebookId: string } }>, reply: FastifyReply) => {
      refuseMisdirected(request.headers.host, request.params.notebookId);
      refuseForeignWrite(request, request.params.notebookId);
      const { upstream, session } = await admit(request.params.notebookId, request.headers.cookie);
      const url = request.raw.url ?? '/';
      const rest = url.slice(notebookBasePath(request.params.notebookId).length);
      const verdict = classifyJupyterRequest(request.method, rest, { terminals });
      if (verdict.kind === 'egress') {
        const queryAt = rest.indexOf('?');
        options.onEgressRefused?.({
          session,
          route: verdict.route,
          method: request.method,
          path: queryAt < 0 ? rest : rest.slice(0, queryAt),
          clientAddress: request.clientAddress,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 512) : undefined,
        });
        return sendRefusal(request, reply, 403, 'This file stays in the workbench', egressRefusalDetail(options.webUrl));
      }
      if (verdict.kind === 'terminal') return sendRefusal(request, reply, 403, 'Terminals are turned off', TERMINALS_OFF_DETAIL);
      if (verdict.kind === 'not-offered') throw new ApiError(404, 'This part of Jupyter is not offered through the platform.');
      const counted = verdict.counted && options.onEgress;
      return reply.from(unixUrl(upstream, url), {
        rewriteRequestHeaders: (_original, headers) => {
          const rewritten: Record<string, string | string[] | undefined> = { ...headers, host: 'localhost', authorization: `token ${upstream.token}` };
          // Jupyter compares Origin and Referer with Host: the platform checked the session instead.
          delete rewritten.origin;
          delete rewritten.referer;
          const cookie = withoutSessionCookie(headers.cookie, cookieName);
          if (cookie) rewritten.cookie = cookie;
          else delete rewritten.cookie;
          return rewritten as typeof headers;
        },
        rewriteHeaders: (headers) => {
          // Another origin's page may neither embed this notebook's answers nor keep a handle
          // on its window.
          const rewritten = { ...headers, 'cross-origin-resource-policy': 'same-origin', 'cross-origin-opener-policy': 'same-origin' };
          // The page is rewritten below, so its length changes.
          if (isHtml(headers['content-type'])) delete rewritten['content-length'];
          return rewritten;
        },
        onResponse: (_request, response, raw) => {
          if (counted) {
            let bytes = 0;
            raw.stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
            raw.stream.once('end', () => options.onEgress!(session, bytes));
          }
          if (!isHtml(response.getHeader('content-type'))) return response.send(raw.stream);
          // Jupyter writes its token into every page (for its scripts' API calls); the proxy adds
          // the token itself, so the page goes out without it. Streamed: a page of any size
          // costs the API a chunk's memory, not the page's.
          const stripped = new TokenStripper(upstream.token);
          raw.stream.once('error', (error) => stripped.destroy(error));
          return response.send(raw.stream.pipe(stripped));
        },
      });
    };
    const route = { config: { access }, schema: { hide: true } };
    proxy.all(`${NOTEBOOK_PROXY_PREFIX}/:notebookId/`, route, forward);
    proxy.all(`${NOTEBOOK_PROXY_PREFIX}/:notebookId/*`, route, forward);
  });

  const websockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_SECONDS * 1000;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A browser that goes away mid-handshake makes the raw socket emit `error`; unheard, that
    // would end the process.
    socket.on('error', () => socket.destroy());
    let answered = false;
    // Answered at most once, whatever mix of refusals (upstream status, then its abort) arrives.
    const refuse = (status: number, text: string) => {
      if (answered) return;
      answered = true;
      if (socket.destroyed || !socket.writable) return void socket.destroy();
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    const url = request.url ?? '';
    const match = NOTEBOOK_PATH.exec(url);
    if (!match) return refuse(404, 'Not Found');
    const notebookId = match[1]!;
    if (origins.notebookIdOfHost(request.headers.host) !== notebookId) return refuse(404, 'Not Found');
    // Only a kernel's channels (and a terminal's, when on) by a path that names nothing else: no
    // dot segments or escapes can reach the Unix socket address built from it.
    const rest = url.slice(match[0].length);
    const terminal = TERMINAL_SOCKET.test(rest);
    if (!KERNEL_SOCKET.test(rest) && !(terminal && terminals)) return refuse(terminal ? 403 : 404, terminal ? 'Forbidden' : 'Not Found');
    const origin = request.headers.origin;
    // Cross-site WebSocket hijacking: a page elsewhere (another notebook's included) must not
    // drive the kernel with the cookie. Only the notebook's own origin may.
    if (origin && origin !== origins.originOf(notebookId)) return refuse(403, 'Forbidden');
    admit(notebookId, request.headers.cookie).then(
      (admitted) => {
        if (answered || socket.destroyed) return;
        connectUpstream(request, socket, head, admitted, refuse, () => answered);
      },
      (error: unknown) => {
        const status = error instanceof ApiError ? error.statusCode : 500;
        refuse(status, status === 503 ? 'Service Unavailable' : status === 401 ? 'Unauthorized' : 'Internal Server Error');
      },
    );
  };

  /**
   * The Jupyter side is opened first and the browser's handshake completed only once it has
   * succeeded, so that a refusal upstream (an unknown kernel) reaches the browser as a refusal.
   * Every way the upstream handshake can fail (a status other than 101, a reset, silence) ends in
   * exactly one answer to the browser: `refuse` ignores all but the first.
   */
  function connectUpstream(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    admitted: { upstream: NotebookUpstream; session: NotebookSession; sessionId: string },
    refuse: (status: number, text: string) => void,
    answered: () => boolean,
  ): void {
    const { upstream } = admitted;
    // The request path is never spliced into the socket's address as it came (dot segments).
    const address = upstreamWebSocketAddress(upstream.socketPath, request.url ?? '');
    if (!address) return refuse(400, 'Bad Request');
    const server = new WebSocket(address, {
      headers: { host: 'localhost', authorization: `token ${upstream.token}` },
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => {
      refuse(504, 'Gateway Timeout');
      server.terminate();
    }, upstreamTimeoutMs);
    const browserGone = () => {
      clearTimeout(timer);
      if (server.readyState !== WebSocket.OPEN) server.terminate();
    };
    socket.once('close', browserGone);
    server.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      // Jupyter's own refusal of the request (an unknown kernel: 404; 403) is passed on; its
      // failures become the proxy's.
      const status = response.statusCode ?? 502;
      if (status >= 400 && status < 500) refuse(status, response.statusMessage || 'Refused');
      else refuse(502, 'Bad Gateway');
      response.resume();
      server.terminate();
    });
    // Also heard after `unexpected-response` (terminate aborts the handshake): refuse is a no-op then.
    server.on('error', () => {
      clearTimeout(timer);
      refuse(502, 'Bad Gateway');
    });
    server.once('open', () => {
      clearTimeout(timer);
      socket.off('close', browserGone);
      if (answered() || socket.destroyed) {
        server.terminate();
        return;
      }
      server.removeAllListeners('error');
      websockets.handleUpgrade(request, socket, head, (client) => bridge(client, server, admitted.session, admitted.sessionId));
    });
  }

  function bridge(client: WebSocket, server: WebSocket, session: NotebookSession, sessionId: string): void {
    const { notebookId } = session;
    activity.opened(notebookId);
    client.on('message', (data, binary) => {
      activity.touch(notebookId);
      if (server.readyState === WebSocket.OPEN) server.send(data, { binary });
    });
    server.on('message', (data: Buffer | ArrayBuffer | Buffer[], binary) => {
      activity.touch(notebookId);
      if (client.readyState !== WebSocket.OPEN) return;
      client.send(data, { binary });
      options.onEgress?.(session, messageBytes(data));
    });
    let closed = false;
    const connection: ProxiedConnection = {
      session,
      sessionId,
      close: (reason) => closeBoth(POLICY_VIOLATION, Buffer.from(reason.slice(0, 120))),
    };
    const closeBoth = (code?: number, reason?: Buffer) => {
      if (closed) return;
      closed = true;
      connections.delete(connection);
      activity.closed(notebookId);
      for (const end of [client, server]) {
        const allowed = code === POLICY_VIOLATION || (code !== undefined && CLOSE_CODES_ALLOWED(code));
        if (end.readyState === WebSocket.OPEN) end.close(allowed ? code : 1000, reason);
        else if (end.readyState === WebSocket.CONNECTING) end.terminate();
      }
    };
    connections.add(connection);
    client.on('close', (code, reason) => closeBoth(code, reason));
    server.on('close', (code, reason) => closeBoth(code, reason));
    client.on('error', () => closeBoth(1011));
    server.on('error', () => closeBoth(1011));
  }

  /**
   * Open WebSockets are checked again while they stay open: the session still exists (not signed
   * out or revoked, not expired) and the gate still lets its user in (not disabled, still a member,
   * not held), asked past its cache.
   */
  const recheck = async () => {
    for (const connection of connections.all()) {
      const { session } = connection;
      const live = sessions.verify(connection.sessionId, session.notebookId);
      const allowed = live !== undefined && (!options.mayUse || (await options.mayUse(session, true).catch(() => false)));
      if (!allowed) connection.close('Access to this notebook has ended.');
    }
  };
  let rechecking = false;
  const recheckTimer = setInterval(() => {
    if (rechecking) return;
    rechecking = true;
    recheck().finally(() => (rechecking = false));
  }, options.recheckMs ?? 5000);
  recheckTimer.unref();

  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', (_instance, done) => {
    clearInterval(recheckTimer);
    app.server.off('upgrade', onUpgrade);
    for (const client of websockets.clients) client.terminate();
    websockets.close(() => done());
  });
}
