import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One request as a service received it. */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body, un-gzipped. */
  body: string;
}

/**
 * A local stand-in for an external service (a fake, over real HTTP on 127.0.0.1): it records every
 * request and answers 200 with `answer`. Used as the PostHog host and the Sentry ingestion endpoint.
 */
export async function startCaptureServer(answer = '{}') {
  const requests: CapturedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body);
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: body.toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  return { requests, ...(await listen(server)) };
}

/** Serves `handler` on a free port of 127.0.0.1. */
export async function listen(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` passes or the time is up (then it throws the last failure). */
export async function eventually(check: () => void, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
