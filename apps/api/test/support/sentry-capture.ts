import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One envelope as it arrived: the raw text and its items (header and payload). */
export interface CapturedEnvelope {
  raw: string;
  header: Record<string, unknown>;
  items: { header: { type: string }; payload: Record<string, unknown> }[];
}

/**
 * A local stand-in for Sentry's ingestion endpoint (a fake, over real HTTP on 127.0.0.1): it keeps
 * every envelope posted to `/api/<project>/envelope/`. Point a DSN at `dsn` to capture what an SDK sends.
 */
export async function startSentryCapture() {
  const envelopes: CapturedEnvelope[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (/^\/api\/\d+\/envelope\/?/.test(req.url ?? '')) envelopes.push(parseEnvelope(body.toString('utf8')));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    envelopes,
    /** Error events (not transactions, sessions or client reports). */
    events: () => envelopes.filter((e) => e.items.some((item) => item.header.type === 'event')),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sentry's envelope format: a header line, then for each item a header line and a payload line. */
export function parseEnvelope(raw: string): CapturedEnvelope {
  const lines = raw.split('\n').filter((line) => line.length > 0);
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  const items: CapturedEnvelope['items'] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(lines[i + 1]!) as Record<string, unknown>;
    } catch {
      payload = { text: lines[i + 1] };
    }
    items.push({ header: JSON.parse(lines[i]!) as { type: string }, payload });
  }
  return { raw, header, items };
}
